package centres

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
)

// TestSecurite_PaquetLectureInterrompue: a bundle's reading stops when
// its request ends (the client left, the server stops): nothing is
// inflated or decoded after (issue 27, item 4).
func TestSecurite_PaquetLectureInterrompue(t *testing.T) {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	manifeste, err := json.Marshal(Manifeste{Format: Format, Epreuve: "E", Centre: "C", Partie: "P", Tournoi: "T"})
	require.NoError(t, err)
	for nom, contenu := range map[string][]byte{FichierManifeste: manifeste, FichierEvenements: bytes.Repeat([]byte("{}\n"), 1000)} {
		w, err := z.Create(nom)
		require.NoError(t, err)
		_, err = w.Write(contenu)
		require.NoError(t, err)
	}
	require.NoError(t, z.Close())
	registre, err := catalogue.Registre()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Lire(ctx, b.Bytes(), registre)
	assert.ErrorIs(t, err, context.Canceled)
}
