package server

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"

	"arbitre/graphql/server/web"
)

// pages serves the hall pages (pagesSalle) and their assets under /static/.
func pages(e *echo.Echo) {
	get(e, "/static/*", echo.WrapHandler(http.StripPrefix("/static/", http.FileServerFS(web.Files))))
	for _, p := range pagesSalle {
		for _, route := range p.routes {
			get(e, route, p.servir)
		}
	}
}

// pageSalle is one hall page, written into the one shell (web/shell.html)
// that holds every page's head: its body is web/<Nom>.html, its code the ES
// module web/<Nom>.js, which imports what it shares with the other pages.
type pageSalle struct {
	Nom    string
	Titre  string   // after « Arbitre — »
	Classe string   // the body's class
	Styles []string // its stylesheets; impression.css is for print
	routes []string
}

// pagesSalle are the hall pages and their addresses.
var pagesSalle = []pageSalle{
	// The display of a duplicate game, /affichage/<partie> (?serie=A for one série).
	{Nom: "affichage", Titre: "affichage", Classe: "affichage", Styles: []string{"arbitre.css", "chrono.css", "affichage.css"},
		routes: []string{"/affichage/*"}},
	// The display of a classique tournament, /affichage/classique/<tournoi>.
	{Nom: "classique", Titre: "classique", Styles: []string{"arbitre.css"},
		routes: []string{"/affichage/classique/*"}},
	// The commission's viewer and appeal workflow, /commission/<partie>;
	// without a game, /commission lists a tournament's appeals.
	{Nom: "commission", Titre: "commission", Classe: "commission", Styles: []string{"arbitre.css", "commission.css", "actions.css"},
		routes: []string{"/commission/*", "/commission"}},
	// The duplicate director's consoles.
	{Nom: "directeur", Titre: "directeur", Classe: "console", Styles: []string{"arbitre.css", "directeur.css", "actions.css"},
		routes: []string{"/directeur"}},
	{Nom: "directeur-partie", Titre: "conduite de la partie", Classe: "console", Styles: []string{"arbitre.css", "chrono.css", "directeur.css", "actions.css"},
		routes: []string{"/directeur/partie/*"}},
	// The arbiter's bulletin entry, /arbitre/partie/<partie>.
	{Nom: "saisie", Titre: "saisie des bulletins", Classe: "saisie", Styles: []string{"arbitre.css", "saisie.css", "impression.css"},
		routes: []string{"/arbitre/partie/*"}},
	// The per-coup score sheet of a game, /scores/<partie> (director,
	// commission, the tournament's arbiters; ?tri=table).
	{Nom: "scores", Titre: "feuille des scores par coup", Classe: "imprimable scores", Styles: []string{"classement.css", "impression.css", "scores.css"},
		routes: []string{"/scores/*"}},
	// The classique TD console, /directeur/classique/<tournoi>, and its printed
	// pages, /impression/classique/<tournoi>/<appariements|classement|feuilles>.
	{Nom: "td", Titre: "console du directeur, classique", Classe: "td", Styles: []string{"td.css", "actions.css", "impression.css"},
		routes: []string{"/directeur/classique/*"}},
	{Nom: "impression-classique", Titre: "impression, classique", Classe: "impression", Styles: []string{"td.css", "impression.css"},
		routes: []string{"/impression/classique/*"}},
	// The duplicate standings ready to print: /classement/<tournoi>, with
	// ?partie= for one game and ?serie= for one série (public data only).
	{Nom: "classement", Titre: "classement à imprimer", Classe: "imprimable", Styles: []string{"classement.css", "impression.css"},
		routes: []string{"/classement/*"}},
}

var coquille = template.Must(template.ParseFS(web.Files, "shell.html"))

// servir answers the page, written into the shell.
func (p pageSalle) servir(c echo.Context) error {
	corps, err := web.Files.ReadFile(p.Nom + ".html")
	if err != nil {
		return err
	}
	var b bytes.Buffer
	err = coquille.Execute(&b, struct {
		pageSalle
		Corps template.HTML // an embedded file of the binary
	}{p, template.HTML(corps)})
	if err != nil {
		return fmt.Errorf("page %s: %w", p.Nom, err)
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.HTMLBlob(http.StatusOK, b.Bytes())
}
