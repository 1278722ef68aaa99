package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"arbitre/graphql/server/web"
)

// pages serves the hall pages: their assets under /static/, the display at
// /affichage/<partie>, the classique display at /affichage/classique/<tournoi>
// the commission's viewer at /commission/<partie>, the duplicate director's
// consoles at /directeur and /directeur/partie/<partie>.
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
}
