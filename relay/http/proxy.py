"""Running behind nginx or Apache: a path prefix, and forwarded headers from trusted proxies.

X-Forwarded-For and X-Forwarded-Proto are read by aiohttp-remotes, and only when the request
comes straight from a configured proxy (an address, a network, or 'unix' for whatever
connects to the relay's unix socket); from anyone else they are ignored. The seek rate
limit then counts the client's own address, not the proxy's."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Sequence

import orjson
from aiohttp import web

from relay.config import UNIX, Config, check_proxy_settings
from relay.core.errors import CODES, RelayError

__all__ = ["UNIX", "TrustedProxies", "behind_proxy", "check_proxy_settings"]

BAD_FORWARDED = "The proxy's X-Forwarded-For or X-Forwarded-Proto header is malformed."
NO_LIBRARY = "--trusted-proxy needs aiohttp-remotes: pip install 'movewire[proxy]'"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class TrustedProxies:
    """Believes X-Forwarded-For and X-Forwarded-Proto only on requests from a trusted proxy."""

    def __init__(self, trusted: Sequence[str]) -> None:
        try:
            from aiohttp_remotes import XForwardedFiltered
        except ImportError:  # pragma: no cover - the 'proxy' extra is missing
            raise SystemExit(NO_LIBRARY) from None
        check_proxy_settings("", trusted)
        self.unix = UNIX in trusted
        """Whether a request through the relay's unix socket comes from a trusted proxy."""
        self.networks = [
            ipaddress.ip_network(entry, strict=False) for entry in trusted if entry != UNIX
        ]
        """The addresses and networks of trusted proxies."""
        # A chain of trusted proxies (a CDN in front of nginx) is walked from the right.
        self._headers = XForwardedFiltered(set(self.networks))

    def is_trusted(self, request: web.BaseRequest) -> bool:
        """Returns whether the request came straight from a trusted proxy."""
        transport = request.transport
        peer = transport.get_extra_info("peername") if transport is not None else None
        if not isinstance(peer, tuple | list) or not peer:
            return self.unix  # a unix socket's peer has no address
        return self.trusts(peer[0])

    def trusts(self, peer: str) -> bool:
        """Returns whether a peer address (or 'unix', for the unix socket) is a trusted proxy."""
        if peer == UNIX:
            return self.unix
        try:
            address: Address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)

    def client_of(self, forwarded_for: str) -> str:
        """Returns the client a trusted proxy's X-Forwarded-For names: the rightmost address
        that is not itself a trusted proxy (read by aiohttp-remotes, as the middleware does)."""
        from aiohttp_remotes.exceptions import RemoteError
        from multidict import CIMultiDict

        try:
            hops = self._headers.get_forwarded_for(CIMultiDict({"X-Forwarded-For": forwarded_for}))
        except (web.HTTPBadRequest, RemoteError):
            raise RelayError("request/invalid", BAD_FORWARDED) from None
        for hop in reversed(hops):
            if not self.trusts(str(hop)):
                return str(hop)
        return str(hops[0]) if hops else ""

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Sets request.remote and request.scheme from a trusted proxy's headers."""
        if not self.is_trusted(request):
            return await handler(request)
        from aiohttp_remotes.exceptions import RemoteError

        try:
            self._headers.get_forwarded_for(request.headers)
            self._headers.get_forwarded_proto(request.headers)
        except (web.HTTPBadRequest, RemoteError):
            raise RelayError("request/invalid", BAD_FORWARDED) from None
        return await self._headers.middleware(request, handler)


@web.middleware
async def _routes_as_json(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answers paths outside the prefix with the protocol's JSON route errors."""
    try:
        return await handler(request)
    except (web.HTTPNotFound, web.HTTPMethodNotAllowed) as exc:
        code = "route/not_found" if exc.status == 404 else "route/method"
        body = orjson.dumps({"error": {"code": code, "message": CODES[code][1]}})
        return web.Response(body=body, status=exc.status, content_type="application/json")


def behind_proxy(app: web.Application, config: Config) -> web.Application:
    """Returns the application to serve: app, trusting config.trusted_proxies' headers,
    mounted under config.prefix when there is one."""
    if config.trusted_proxies:
        app.middlewares.append(TrustedProxies(config.trusted_proxies).middleware)
    if not config.prefix:
        return app
    front = web.Application(middlewares=[_routes_as_json], client_max_size=config.max_body)
    front.add_subapp(config.prefix, app)
    return front
