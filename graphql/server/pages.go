package server

import (
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
// /arbitre/partie/<p>, the per-coup score sheet of a game at /scores/<partie>
// (director, commission, the tournament's arbiters), the classique TD console at /directeur/classique/<tournoi>
// and its printed pages at /impression/classique/<tournoi>/<appariements|classement|feuilles>.
func pages(e *echo.Echo) {
	get(e, "/static/*", echo.WrapHandler(http.StripPrefix("/static/", http.FileServerFS(web.Files))))
	page := func(name string) echo.HandlerFunc {
		return func(c echo.Context) error {
			body, err := web.Files.ReadFile(name)
			if err != nil {
				return err
			}
			c.Response().Header().Set("Cache-Control", "no-cache")
			return c.HTMLBlob(http.StatusOK, body)
		}
	}
	get(e, "/affichage/*", page("affichage.html"))
	get(e, "/affichage/classique/*", page("classique.html"))
	get(e, "/commission/*", page("commission.html"))
	// The duplicate director's consoles.
	get(e, "/directeur", page("directeur.html"))
	get(e, "/directeur/partie/*", page("directeur-partie.html"))
	get(e, "/arbitre/partie/*", page("saisie.html"))
	get(e, "/scores/*", page("scores.html"))
	get(e, "/directeur/classique/*", page("td.html"))
	get(e, "/impression/classique/*", page("impression-classique.html"))
	// Without a game, the commission's page lists a tournament's appeals.
	get(e, "/commission", page("commission.html"))
	// The duplicate standings ready to print: /classement/<tournoi>, with
	// ?partie= for one game and ?serie= for one série (public data only).
	get(e, "/classement/*", page("classement.html"))
}
