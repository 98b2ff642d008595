"""The protocol over HTTP/1.1: the lean front and its request reader (llhttp), the aiohttp
application, the web pages, trusted proxies, and the guard that bounds what a connection
may cost. Imports every layer below it: core, store, config, api, webhook."""
