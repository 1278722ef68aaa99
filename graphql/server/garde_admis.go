package server

import (
	"container/list"
	"strings"
	"sync"
)

const (
	// maxDocumentsAdmis bounds the document texts the guard keeps as
	// admitted (least recently sent dropped first): the pages, the CLI,
	// the twinned sites and the load generator send a few dozen.
	maxDocumentsAdmis = 1024
	// maxOctetsAdmis bounds the bytes of the texts kept (least recently
	// sent dropped first): 64 documents at the guard's 64 KiB bound.
	maxOctetsAdmis = 4 << 20
)

// documentsAdmis keeps the texts of admitted documents, in the order they
// were last sent, within maxDocumentsAdmis texts and maxOctetsAdmis bytes.
type documentsAdmis struct {
	mu       sync.Mutex
	parTexte map[string]*list.Element
	ordre    *list.List // of string, most recently sent first
	octets   int
}

func nouveauxDocumentsAdmis() *documentsAdmis {
	return &documentsAdmis{parTexte: map[string]*list.Element{}, ordre: list.New()}
}

// contient tells whether texte, byte for byte, was admitted and is still
// kept; it becomes the most recently sent.
func (d *documentsAdmis) contient(texte string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.parTexte[texte]
	if ok {
		d.ordre.MoveToFront(e)
	}
	return ok
}

// ajouter keeps texte, admitted, dropping the least recently sent texts
// over the bounds. The text is copied: the request's own buffer is not
// kept alive by it.
func (d *documentsAdmis) ajouter(texte string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.parTexte[texte]; ok {
		return
	}
	texte = strings.Clone(texte)
	d.parTexte[texte] = d.ordre.PushFront(texte)
	d.octets += len(texte)
	for d.ordre.Len() > maxDocumentsAdmis || d.octets > maxOctetsAdmis {
		ancien := d.ordre.Remove(d.ordre.Back()).(string)
		delete(d.parTexte, ancien)
		d.octets -= len(ancien)
	}
}
