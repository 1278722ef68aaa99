// Package web holds the hall pages served by `arbitre serve`: plain HTML,
// CSS and JavaScript, embedded in the binary, talking only to the GraphQL
// API. /affichage/<partie> is the public display (?serie=A for one série),
// /commission/<partie>?coup=N the commission's replay viewer and appeal
// workflow (/commission alone: a tournament's appeals), /classement/<tournoi>
// the printable duplicate standings, /directeur and /directeur/partie/<partie>
// the duplicate director's consoles, /scores/<partie> a game's per-coup
// score sheet; session.js is the consoles' shared
// sign-in (token in sessionStorage, headers only). Every page is written
// into one shell, shell.html, which holds the head: a page is its body
// (<page>.html) and its ES module (<page>.js), which imports what it shares.
package web

import "embed"

// Files are the pages and their assets.
//
//go:embed *.html *.css *.js
var Files embed.FS
