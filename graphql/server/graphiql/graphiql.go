// Package graphiql embeds GraphiQL so that `arbitre serve` offers it at /
// without any network: a director's laptop in a hall is often offline.
// The files are the npm builds of graphiql 3.8.3, react 18.3.1 and
// react-dom 18.3.1 (MIT, see LICENSES.txt), unchanged; index.html, start.js
// and start.css are ours.
package graphiql

import "embed"

// Files holds index.html and its assets.
//
//go:embed index.html *.js *.css LICENSES.txt
var Files embed.FS
