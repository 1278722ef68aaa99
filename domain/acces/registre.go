package acces

import (
	"sync"
	"time"
)

// Habilitation is what an authenticated request may do.
type Habilitation struct {
	JetonID string
	Role    Role
	Tournoi string
	Tables  Tables
	Expire  time.Time
}

// Registre holds the valid tokens, fed with the access events in log order.
// It is safe for concurrent use: the server authenticates while the store
// subscription applies new events.
type Registre struct {
	mu      sync.RWMutex
	parEmp  map[string]Habilitation
	empDeID map[string]string
}

// NewRegistre returns an empty registry.
func NewRegistre() *Registre {
	return &Registre{parEmp: map[string]Habilitation{}, empDeID: map[string]string{}}
}

// Appliquer takes one access event (JetonEmis or JetonRevoque); other
// payloads are ignored.
func (r *Registre) Appliquer(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := ev.(type) {
	case JetonEmis:
		r.parEmp[e.Empreinte] = Habilitation{JetonID: e.ID, Role: e.Role, Tournoi: e.Tournoi, Tables: e.Tables, Expire: e.Expire}
		r.empDeID[e.ID] = e.Empreinte
	case JetonRevoque:
		delete(r.parEmp, r.empDeID[e.ID])
		delete(r.empDeID, e.ID)
	}
}

// Authentifier finds the rights of a secret at instant now.
func (r *Registre) Authentifier(secret string, now time.Time) (Habilitation, error) {
	r.mu.RLock()
	h, ok := r.parEmp[Empreinte(secret)]
	r.mu.RUnlock()
	switch {
	case !ok:
		return Habilitation{}, &Error{Code: CodeUnknownToken, Message: "jeton inconnu ou révoqué"}
	case !now.Before(h.Expire):
		return Habilitation{}, &Error{Code: CodeExpiredToken, Message: "jeton expiré le " + h.Expire.Format("02/01/2006 15:04 MST")}
	}
	return h, nil
}

// Existe reports whether a token id is known (issued and not revoked).
func (r *Registre) Existe(id string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.empDeID[id]
	return ok
}
