package graphql

import (
	"arbitre/domain/erreur"
	"fmt"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// The rate of the bundles one centre sends, per event or twinning
// (docs/securite.md): each sending is recorded as one event, kept for good.
// A twinned site sends its results whenever they change; refused, it sends
// its latest results again a moment later.
const (
	// EnvoisParMinute is how many bundles a centre sends a minute past its
	// burst.
	EnvoisParMinute = 12
	// RafaleEnvois is how many bundles a centre sends in a row.
	RafaleEnvois = 10
)

// debitCentres limits each centre's bundles, per event or twinning and
// centre. Its zero value is ready; its keys are those of the centres'
// tokens (or of bundles a director sends).
type debitCentres struct {
	mu    sync.Mutex
	seaux map[[2]string]*rate.Limiter
}

// autoriser takes one sending from the centre's allowance, or refuses it
// with RATE_LIMITED.
func (d *debitCentres) autoriser(epreuve, centre string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seaux == nil {
		d.seaux = map[[2]string]*rate.Limiter{}
	}
	cle := [2]string{epreuve, centre}
	seau := d.seaux[cle]
	if seau == nil {
		seau = rate.NewLimiter(rate.Every(time.Minute/EnvoisParMinute), RafaleEnvois)
		d.seaux[cle] = seau
	}
	if !seau.Allow() {
		attente := int(time.Minute / EnvoisParMinute / time.Second)
		return &erreur.Erreur{Code: CodeRateLimited, Details: map[string]any{"retryAfter": attente},
			Message: fmt.Sprintf("le centre %s envoie trop de paquets pour %s : %d à la suite, puis %d par minute ; renvoyer dans %d s", centre, epreuve, RafaleEnvois, EnvoisParMinute, attente)}
	}
	return nil
}
