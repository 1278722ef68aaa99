package acces

import (
	"arbitre/domain/erreur"
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

func entropy() *bytes.Reader { return bytes.NewReader(bytes.Repeat([]byte{7, 1, 9, 3}, 64)) }

// codeDe is the code of an access error; any other error fails the test.
func codeDe(t *testing.T, err error) Code {
	t.Helper()
	var e *erreur.Erreur
	require.ErrorAs(t, err, &e)
	return e.Code
}

// champDe is the field an INVALID_INPUT refusal names.
func champDe(t *testing.T, err error) any {
	t.Helper()
	var e *erreur.Erreur
	require.ErrorAs(t, err, &e)
	require.Equal(t, CodeInvalidInput, e.Code)
	return e.Details["champ"]
}

func TestParseTables(t *testing.T) {
	cases := []struct {
		in   string
		want Tables
		err  bool
	}{
		{"1-40", Tables{1, 40}, false}, {"7", Tables{7, 7}, false}, {"", Tables{}, false},
		{"40-1", Tables{}, true}, {"0-3", Tables{}, true}, {"a-b", Tables{}, true},
	}
	for _, c := range cases {
		got, err := ParseTables(c.in)
		if c.err {
			assert.Equal(t, "tables", champDe(t, err), c.in)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
		assert.Equal(t, c.in, got.String())
	}
}

func TestIssueAuthenticateRevoke(t *testing.T) {
	secret, ev, err := Emettre(entropy(), t0, Demande{Role: Arbitre, Tournoi: "T1", Tables: Tables{1, 40}, Duree: 48 * time.Hour})
	require.NoError(t, err)
	assert.NotContains(t, ev.Empreinte, secret, "the secret is never recorded")
	reg := NewRegistre()
	reg.Appliquer(ev)
	h, err := reg.Authentifier(context.Background(), secret, t0.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, Arbitre, h.Role)

	_, err = reg.Authentifier(context.Background(), secret, t0.Add(48*time.Hour))
	assert.ErrorContains(t, err, string(CodeExpiredToken))
	_, err = reg.Authentifier(context.Background(), "arb_forged", t0)
	assert.ErrorContains(t, err, string(CodeUnauthenticated))

	reg.Appliquer(JetonRevoque{ID: ev.ID})
	_, err = reg.Authentifier(context.Background(), secret, t0.Add(time.Hour))
	assert.ErrorContains(t, err, string(CodeUnauthenticated))
	assert.False(t, reg.Existe(ev.ID))
}

func TestIssueRefusesBadRequests(t *testing.T) {
	for _, c := range []struct {
		d     Demande
		champ string
	}{
		{Demande{Role: "king", Duree: time.Hour}, "role"},
		{Demande{Role: Arbitre, Duree: 0}, "heures"},
		{Demande{Role: Commission, Tables: Tables{1, 2}, Duree: time.Hour}, "tables"},
	} {
		_, _, err := Emettre(entropy(), t0, c.d)
		assert.Equal(t, c.champ, champDe(t, err), "%+v", c.d)
	}
}

func TestAutoriser(t *testing.T) {
	arbitre := Habilitation{Role: Arbitre, Tournoi: "T1", Tables: Tables{1, 40}}
	directeur := Habilitation{Role: Directeur}
	cases := []struct {
		name string
		h    Habilitation
		role Role
		p    Portee
		ok   bool
	}{
		{"arbiter on an assigned table", arbitre, Arbitre, Portee{"T1", 12, false}, true},
		{"arbiter off his tables", arbitre, Arbitre, Portee{"T1", 41, false}, false},
		{"arbiter in another tournament", arbitre, Arbitre, Portee{"T2", 12, false}, false},
		{"arbiter acting as director", arbitre, Directeur, Portee{"T1", 0, false}, false},
		{"director does an arbiter's work", directeur, Arbitre, Portee{"T9", 99, false}, true},
		{"director for every tournament", directeur, Directeur, Portee{"T2", 0, false}, true},
		{"commission refused to arbiter", arbitre, Commission, Portee{"T1", 0, false}, false},
		// Issue 11, item 1: a player with no table is no table of a limited arbiter.
		{"limited arbiter for a player seated nowhere", arbitre, Arbitre, Portee{"T1", 0, true}, false},
		{"arbiter of every table for a player seated nowhere", Habilitation{Role: Arbitre, Tournoi: "T1"}, Arbitre, Portee{"T1", 0, true}, true},
	}
	for _, c := range cases {
		err := Autoriser(c.h, []Role{c.role}, c.p)
		if c.ok {
			assert.NoError(t, err, c.name)
		} else {
			assert.Equal(t, CodeForbidden, codeDe(t, err), c.name)
		}
	}
}

func TestPeutEmettre(t *testing.T) {
	local := Habilitation{Role: Directeur, Tournoi: "T1"}
	assert.NoError(t, PeutEmettre(local, Demande{Role: Arbitre, Tournoi: "T1"}))
	assert.Equal(t, CodeForbidden, codeDe(t, PeutEmettre(local, Demande{Role: Arbitre})), "no server-wide token from a tournament director")
	assert.Equal(t, CodeForbidden, codeDe(t, PeutEmettre(local, Demande{Role: Arbitre, Tournoi: "T2"})))
	assert.Equal(t, CodeForbidden, codeDe(t, PeutEmettre(Habilitation{Role: Arbitre}, Demande{Role: Arbitre})))
	assert.NoError(t, PeutEmettre(Habilitation{Role: Directeur}, Demande{Role: Commission, Tournoi: "T2"}))
}

func TestSecurite_DureeDeJetonBornee(t *testing.T) {
	cases := []struct {
		heures int
		ok     bool
	}{{1, true}, {720, true}, {0, false}, {-1, false}, {721, false}, {2562048, false}, {6000000, false}, {math.MaxInt, false}}
	for _, c := range cases {
		d, err := DureeEnHeures(c.heures)
		if !c.ok {
			assert.ErrorContains(t, err, string(CodeInvalidInput), "%d heures", c.heures)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, time.Duration(c.heures)*time.Hour, d)
	}
	for _, d := range []time.Duration{-time.Hour, 0, DureeMax + time.Nanosecond, math.MaxInt64} {
		_, _, err := Emettre(entropy(), t0, Demande{Role: Arbitre, Duree: d})
		assert.ErrorContains(t, err, "30 jours", "%s", d)
	}
	_, ev, err := Emettre(entropy(), t0, Demande{Role: Arbitre, Duree: DureeMax})
	require.NoError(t, err)
	assert.Equal(t, t0.Add(DureeMax), ev.Expire)
}

func TestSecurite_RevocationSelonLaPorteeDuJeton(t *testing.T) {
	serveur := Habilitation{Role: Directeur}
	t1 := Habilitation{Role: Directeur, Tournoi: "T1"}
	cases := []struct {
		name          string
		issuer, cible Habilitation
		ok            bool
	}{
		{"server-wide director, any token", serveur, Habilitation{Role: Arbitre, Tournoi: "T2"}, true},
		{"server-wide director, server-wide token", serveur, Habilitation{Role: Commission}, true},
		{"tournament director, its tournament", t1, Habilitation{Role: Arbitre, Tournoi: "T1"}, true},
		{"tournament director, another tournament", t1, Habilitation{Role: Arbitre, Tournoi: "T2"}, false},
		{"tournament director, server-wide token", t1, serveur, false},
		{"arbiter", Habilitation{Role: Arbitre}, Habilitation{Role: Arbitre, Tournoi: "T1"}, false},
	}
	for _, c := range cases {
		err := PeutRevoquer(c.issuer, c.cible)
		if c.ok {
			assert.NoError(t, err, c.name)
		} else {
			assert.ErrorContains(t, err, string(CodeForbidden), c.name)
		}
	}
}

// Veiller ends its context when the token is revoked or expires, with the
// reason as cause, and forgets it when the context ends first.
func TestSecurite_VeillerJeton(t *testing.T) {
	secret, ev, err := Emettre(entropy(), t0, Demande{Role: Commission, Duree: time.Hour})
	require.NoError(t, err)
	reg := NewRegistre()
	reg.Appliquer(ev)
	h, err := reg.Authentifier(context.Background(), secret, t0)
	require.NoError(t, err)

	expiring := reg.Veiller(context.Background(), h, h.Expire.Add(-time.Millisecond))
	<-expiring.Done()
	assert.ErrorContains(t, context.Cause(expiring), string(CodeExpiredToken))

	parent, cancel := context.WithCancel(context.Background())
	ended := reg.Veiller(parent, h, t0)
	watched := reg.Veiller(context.Background(), h, t0)
	cancel()
	<-ended.Done()
	require.NoError(t, watched.Err())

	reg.Appliquer(JetonRevoque{ID: ev.ID})
	<-watched.Done()
	assert.Equal(t, "jeton révoqué", context.Cause(watched).(*erreur.Erreur).Message)
	_, err = reg.Authentifier(context.Background(), secret, t0)
	assert.ErrorContains(t, err, "jeton révoqué")
	assert.ErrorIs(t, reg.Veiller(context.Background(), h, t0).Err(), context.Canceled, "a revoked token is not watched: its context ends at once")
	require.Eventually(t, func() bool {
		reg.mu.RLock()
		defer reg.mu.RUnlock()
		return len(reg.veilles) == 0
	}, 5*time.Second, time.Millisecond, "no watch outlives its context")
}

// Issue 28, item 8: a token whose issuer was revoked before its emission
// reached the registry (issued in the instant the issuer was revoked)
// never works; revoking a token revokes its descendants, not its siblings.
func TestSecurite_RevocationEnCascade(t *testing.T) {
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	emis := func(id, emetteur string) JetonEmis {
		return JetonEmis{ID: id, Empreinte: Empreinte("arb_" + id), Role: Directeur, Expire: now.Add(time.Hour), Emetteur: emetteur}
	}
	r := NewRegistre()
	for _, ev := range []any{emis("racine", ""), emis("enfant", "racine"), emis("petit-enfant", "enfant"), emis("voisin", ""),
		JetonRevoque{ID: "racine"}, emis("tardif", "racine")} {
		r.Appliquer(ev)
	}
	for id, marche := range map[string]bool{"racine": false, "enfant": false, "petit-enfant": false, "tardif": false, "voisin": true} {
		_, err := r.Authentifier(context.Background(), "arb_"+id, now)
		if marche {
			assert.NoError(t, err, id)
		} else {
			assert.Equal(t, errRevoque, err, id)
		}
	}
}
