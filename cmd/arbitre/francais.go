package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"strings"
	"syscall"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// fr prints numbers as a French reader writes them: a decimal comma and a
// narrow space between thousands (92,30 ; 1 066 724).
var fr = message.NewPrinter(language.French)

// duree is a duration in seconds, French style (1,458 s).
func duree(d time.Duration) string {
	return fr.Sprintf("%.3f s", d.Seconds())
}

// enFrancais says in French the errors of the operating system that reach
// a person as they are (a file that cannot be read, an address already in
// use), wherever they are wrapped; any other error is returned unchanged.
func enFrancais(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "listen" {
		cause := op.Err.Error()
		switch {
		case errors.Is(err, syscall.EADDRINUSE):
			cause = "l'adresse est déjà utilisée par un autre programme (un autre serveur ?) : choisissez un autre --listen"
		case errors.Is(err, syscall.EACCES):
			cause = "permission refusée (un port sous 1024 demande les droits d'administrateur) : choisissez un autre --listen"
		}
		msg = strings.Replace(msg, op.Error(), fmt.Sprintf("impossible d'écouter sur %s : %s", op.Addr, cause), 1)
		return errors.New(msg)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		var fr string
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fr = fmt.Sprintf("le fichier %q n'existe pas", pe.Path)
		case errors.Is(err, fs.ErrPermission):
			fr = fmt.Sprintf("accès refusé au fichier %q", pe.Path)
		case errors.Is(err, syscall.EISDIR):
			fr = fmt.Sprintf("%q est un dossier, pas un fichier", pe.Path)
		default:
			fr = fmt.Sprintf("le fichier %q est illisible (%v)", pe.Path, pe.Err)
		}
		return errors.New(strings.Replace(msg, pe.Error(), fr, 1))
	}
	return err
}
