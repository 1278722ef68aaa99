package appel

import (
	"arbitre/domain/erreur"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSecurite_IdentifiantDAppelParTournoi (issue 28 item 10): an
// appeal's stream is its tournament's and id's, never another pair's: two
// tournaments using the same id, or splitting "A-B-C" differently, get two
// streams.
func TestSecurite_IdentifiantDAppelParTournoi(t *testing.T) {
	vus := map[string][2]string{}
	for _, p := range [][2]string{{"A", "AP1"}, {"B", "AP1"}, {"A-B", "C"}, {"A", "B-C"}, {"1-A", "B"}, {"1", "A-B"}, {"T1", "AP1"}} {
		flux, err := Flux(p[0], p[1])
		require.NoError(t, err)
		assert.NotContains(t, vus, flux, "%v and %v", vus[flux], p)
		vus[flux] = p
	}
	flux, err := Flux("T1", "AP1")
	require.NoError(t, err)
	assert.Equal(t, "appel-2-T1-AP1", flux)
	for _, p := range [][2]string{{"", "AP1"}, {"T1", ""}, {"T 1", "AP1"}, {"T1", "AP/1"}} {
		_, err := Flux(p[0], p[1])
		assert.Error(t, err, "%q", p)
	}
}

// Retrouver reads an appeal from its stream, or from the stream of the
// days ids were global when the appeal there is the tournament's; another
// tournament's appeal there is an id nobody used.
func TestRetrouver_FluxDUnAppelDeposeAvantLesIdentifiantsParTournoi(t *testing.T) {
	deposeDans := func(tournoi string) *Appel {
		s := saisine()
		s.Objet.Tournoi = tournoi
		a := Nouveau()
		require.NoError(t, a.Deposer(s, instant(t0)))
		return a
	}
	tests := []struct {
		name      string
		tournoi   string
		stockes   map[string]*Appel
		code      Code
		version   int
		flux      string
		deTournoi string
	}{
		{"dans son flux", "t1", map[string]*Appel{"appel-2-t1-a1": deposeDans("t1")}, "", 1, "appel-2-t1-a1", "t1"},
		{"dans l'ancien flux, du tournoi", "t1", map[string]*Appel{"appel-a1": deposeDans("t1")}, "", 1, "appel-a1", "t1"},
		{"son flux avant l'ancien", "t1", map[string]*Appel{"appel-2-t1-a1": deposeDans("t1"), "appel-a1": deposeDans("t1")}, "", 1, "appel-2-t1-a1", "t1"},
		{"dans l'ancien flux, d'un autre tournoi", "t2", map[string]*Appel{"appel-a1": deposeDans("t1")}, "", 0, "", ""},
		{"aucun", "t1", nil, "", 0, "", ""},
		{"son nom pris par un appel d'autrefois", "t1", map[string]*Appel{"appel-2-t1-a1": func() *Appel {
			s := saisine()
			s.Appel = "2-t1-a1"
			a := Nouveau()
			require.NoError(t, a.Deposer(s, instant(t0)))
			return a
		}()}, CodeInvalidAppeal, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Retrouver(tt.tournoi, "a1", func(flux string) (*Appel, error) {
				if s := tt.stockes[flux]; s != nil {
					return s, nil
				}
				return Nouveau(), nil
			})
			if tt.code != "" {
				assert.Equal(t, tt.code, erreur.CodeOf(err), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.version, a.Version())
			if tt.version > 0 {
				assert.Equal(t, tt.flux, a.Flux())
				assert.Equal(t, tt.deTournoi, a.Objet().Tournoi)
			}
		})
	}
	_, err := Retrouver("t1", "a/1", func(string) (*Appel, error) { return Nouveau(), nil })
	assert.Equal(t, CodeAppealNotFound, erreur.CodeOf(err), "an invalid id is an appeal nobody filed")
}
