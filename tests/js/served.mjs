// Lays the page files out for node as the relay serves them: every file of relay/pages and of
// each game package's page folder (examples/*/page) at one root. A module that imports
// "./board-rules.mjs" from a game's folder gets the page kit's, as in a browser. Loaded with
// `node --import ./tests/js/served.mjs` (test_node_suite.py and the agreement tests do).

import { register } from "node:module";

register("./served-hooks.mjs", import.meta.url);
