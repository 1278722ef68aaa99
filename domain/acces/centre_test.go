package acces

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecurite_JetonCentre: a centre's token (guide §2.17–2.18) names its
// event and its centre when issued, and only that centre's token does; it
// has the least rights: nothing a director, an arbiter or the commission
// does, and only for its event.
func TestSecurite_JetonCentre(t *testing.T) {
	now := time.Date(2026, 7, 14, 9, 0, 0, 0, time.UTC)
	emissions := []struct {
		name string
		d    Demande
		ok   bool
	}{
		{"centre et épreuve", Demande{Role: Centre, Tournoi: "SIM", Centre: "Brest", Duree: time.Hour}, true},
		{"sans centre", Demande{Role: Centre, Tournoi: "SIM", Duree: time.Hour}, false},
		{"sans épreuve", Demande{Role: Centre, Centre: "Brest", Duree: time.Hour}, false},
		{"un arbitre ne nomme pas de centre", Demande{Role: Arbitre, Centre: "Brest", Duree: time.Hour}, false},
	}
	for _, e := range emissions {
		t.Run(e.name, func(t *testing.T) {
			_, ev, err := Emettre(nil, now, e.d)
			if !e.ok {
				assert.Equal(t, CodeInvalidInput, codeDe(t, err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "Brest", ev.Centre)
		})
	}
	centre := Habilitation{Role: Centre, Tournoi: "SIM", Centre: "Brest"}
	autorisations := []struct {
		name  string
		roles []Role
		p     Portee
		ok    bool
	}{
		{"envoyer ses résultats", []Role{Centre}, Portee{Tournoi: "SIM"}, true},
		{"pour une autre épreuve", []Role{Centre}, Portee{Tournoi: "AUTRE"}, false},
		{"diriger", []Role{Directeur}, Portee{Tournoi: "SIM"}, false},
		{"corriger", []Role{Arbitre}, Portee{Tournoi: "SIM"}, false},
		{"juger un recours", []Role{Commission}, Portee{Tournoi: "SIM"}, false},
	}
	for _, a := range autorisations {
		t.Run(a.name, func(t *testing.T) {
			err := Autoriser(centre, a.roles, a.p)
			if a.ok {
				assert.NoError(t, err)
			} else {
				assert.Equal(t, CodeForbidden, codeDe(t, err))
			}
		})
	}
	_, err := ParseRole("centre")
	assert.NoError(t, err)
}
