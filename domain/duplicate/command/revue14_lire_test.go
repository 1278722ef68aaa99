package command_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/command"
)

// TestRevue14_ChaqueArbitreLitSesEcritures: arbiters entering at once,
// each on his own table, one bulletin after the other, each loading the
// game, depositing and saving itself (no retry): every load holds the
// arbiter's previous bulletins (the commands of a game share their
// reads, session 14), so no save conflicts.
func TestRevue14_ChaqueArbitreLitSesEcritures(t *testing.T) {
	b := nouveauBanc(t)
	const tables, parTable = 12, 6
	var joueurs []string
	for i := 1; i <= tables*parTable; i++ {
		joueurs = append(joueurs, fmt.Sprintf("J%d", i))
	}
	require.NoError(t, b.app.CreerPartie(b.ctx, command.CreerPartie{Partie: "p4", Tournoi: "t1", Numero: 4,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(11))}, Joueurs: joueurs}))
	require.NoError(t, b.app.Tirer(b.ctx, command.Tirer{Partie: "p4"}))
	s := b.charger(t, "p4").Solutions()[0].Move
	require.NoError(t, b.app.RetenirTop(b.ctx, command.RetenirTop{Partie: "p4", Ref: s.Ref().String(), Mot: s.WordString()}))
	top, ok := b.charger(t, "p4").Top(1)
	require.True(t, ok)

	var wg sync.WaitGroup
	errs := make([]error, tables)
	for k := range tables {
		wg.Go(func() {
			for j := range parTable {
				licence := fmt.Sprintf("J%d", k*parTable+j+1)
				p, err := b.depot.Charger(b.ctx, "p4")
				if err != nil {
					errs[k] = err
					return
				}
				for _, avant := range joueurs[k*parTable : k*parTable+j] {
					if _, ok := p.Depose(1, avant); !ok {
						errs[k] = fmt.Errorf("%s: the load lacks %s, deposited before", licence, avant)
						return
					}
				}
				d := duplicate.BulletinDepose{Coup: 1, Licence: licence, Table: k + 1, Arbitre: fmt.Sprintf("A%d", k+1),
					Bulletin: duplicate.BulletinEcrit(top.Ref, top.Mot, &top.Score, false, false)}
				if err := p.DeposerBulletin(d); err != nil {
					errs[k] = err
					return
				}
				if err := b.depot.Enregistrer(b.ctx, p, arbitre); err != nil {
					errs[k] = fmt.Errorf("%s: %w", licence, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for k, err := range errs {
		assert.NoError(t, err, "table %d", k+1)
	}
}
