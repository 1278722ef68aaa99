package server

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"

	"arbitre/graphql/server/web"
)

// pages serves the hall pages: their assets under /static/, the display at
// /affichage/<partie>, the classique display at /affichage/classique/<tournoi>,
// the commission's viewer and appeal workflow at /commission/<partie>, the
// tournament's appeals at /commission, the printable duplicate standings at
// /classement/<tournoi>, the duplicate director's consoles at /directeur and
// /directeur/partie/<partie>, the arbiter's bulletin entry at
// /arbitre/partie/<p>, the classique TD console at /directeur/classique/<tournoi>
// and its printed pages at /impression/classique/<tournoi>/<appariements|classement|feuilles>.
func pages(e *echo.Echo) {
	get(e, "/static/*", echo.WrapHandler(http.StripPrefix("/static/", http.FileServerFS(web.Files))))
	page := func(nom string) echo.HandlerFunc {
		p, ok := pagesSalle[nom]
		if !ok {
			panic("pages: no hall page " + nom)
		}
		p.Nom = nom
		return func(c echo.Context) error {
			body, err := p.rendre()
			if err != nil {
				return err
			}
			c.Response().Header().Set("Cache-Control", "no-cache")
			return c.HTMLBlob(http.StatusOK, body)
		}
	}
	get(e, "/affichage/*", page("affichage"))
	get(e, "/affichage/classique/*", page("classique"))
	get(e, "/commission/*", page("commission"))
	// The duplicate director's consoles.
	get(e, "/directeur", page("directeur"))
	get(e, "/directeur/partie/*", page("directeur-partie"))
	get(e, "/arbitre/partie/*", page("saisie"))
	get(e, "/directeur/classique/*", page("td"))
	get(e, "/impression/classique/*", page("impression-classique"))
	// Without a game, the commission's page lists a tournament's appeals.
	get(e, "/commission", page("commission"))
	// The duplicate standings ready to print: /classement/<tournoi>, with
	// ?partie= for one game and ?serie= for one série (public data only).
	get(e, "/classement/*", page("classement"))
}

// pageSalle is one hall page, written into the one shell (web/shell.html)
// that holds every page's head: its body is web/<nom>.html, its code the ES
// module web/<nom>.js, which imports what it shares with the other pages.
type pageSalle struct {
	Nom    string
	Titre  string   // after « Arbitre — »
	Classe string   // the body's class
	Styles []string // its stylesheets; impression.css is for print
}

// pagesSalle are the hall pages by name.
var pagesSalle = map[string]pageSalle{
	"affichage":            {Titre: "affichage", Classe: "affichage", Styles: []string{"arbitre.css", "chrono.css", "affichage.css"}},
	"classement":           {Titre: "classement à imprimer", Classe: "imprimable", Styles: []string{"classement.css", "impression.css"}},
	"classique":            {Titre: "classique", Styles: []string{"arbitre.css"}},
	"commission":           {Titre: "commission", Classe: "commission", Styles: []string{"arbitre.css", "commission.css", "actions.css"}},
	"directeur":            {Titre: "directeur", Classe: "console", Styles: []string{"arbitre.css", "directeur.css", "actions.css"}},
	"directeur-partie":     {Titre: "conduite de la partie", Classe: "console", Styles: []string{"arbitre.css", "chrono.css", "directeur.css", "actions.css"}},
	"impression-classique": {Titre: "impression, classique", Classe: "impression", Styles: []string{"td.css", "impression.css"}},
	"saisie":               {Titre: "saisie des bulletins", Classe: "saisie", Styles: []string{"arbitre.css", "saisie.css", "impression.css"}},
	"td":                   {Titre: "console du directeur, classique", Classe: "td", Styles: []string{"td.css", "actions.css", "impression.css"}},
}

var coquille = template.Must(template.ParseFS(web.Files, "shell.html"))

// rendre writes the page into the shell.
func (p pageSalle) rendre() ([]byte, error) {
	corps, err := web.Files.ReadFile(p.Nom + ".html")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = coquille.Execute(&b, struct {
		pageSalle
		Corps template.HTML // an embedded file of the binary
	}{p, template.HTML(corps)})
	if err != nil {
		return nil, fmt.Errorf("page %s: %w", p.Nom, err)
	}
	return b.Bytes(), nil
}
