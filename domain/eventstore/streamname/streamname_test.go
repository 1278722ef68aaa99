package streamname_test

import (
	"testing"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStreamNamesRoundTrip(t *testing.T) {
	cases := []struct {
		build func(string) (string, error)
		id    string
		name  string
		kind  streamname.StreamKind
	}{
		{streamname.PartieStream, "2025-cannes-p3", "partie-2025-cannes-p3", streamname.KindPartie},
		{streamname.MatchStream, "m_17", "match-m_17", streamname.KindMatch},
		{streamname.TournoiStream, "vichy2025", "tournoi-vichy2025", streamname.KindTournoi},
		{streamname.AppelStream, "A12", "appel-A12", streamname.KindAppel},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name, err := tc.build(tc.id)
			require.NoError(t, err)
			assert.Equal(t, tc.name, name)
			kind, id, err := streamname.ParseStream(name)
			require.NoError(t, err)
			assert.Equal(t, tc.kind, kind)
			assert.Equal(t, tc.id, id)
		})
	}
}

func TestStreamNamesRefuseMalformedInput(t *testing.T) {
	for _, id := range []string{"", "a b", "é", "x/y", "$all"} {
		_, err := streamname.PartieStream(id)
		assert.ErrorIs(t, err, eventstore.ErrInvalidArgument, "id %q", id)
	}
	for _, name := range []string{"", "partie", "partie-", "joueur-1", "$stats-1"} {
		_, _, err := streamname.ParseStream(name)
		assert.ErrorIs(t, err, eventstore.ErrInvalidArgument, "name %q", name)
	}
	_, err := streamname.StreamName("joueur", "1")
	assert.ErrorIs(t, err, eventstore.ErrInvalidArgument)
}

func TestExpectedRevisionCheck(t *testing.T) {
	cases := []struct {
		expected eventstore.ExpectedRevision
		current  uint64
		exists   bool
		ok       bool
	}{
		{eventstore.Any, 0, false, true},
		{eventstore.Any, 7, true, true},
		{eventstore.NoStream, 0, false, true},
		{eventstore.NoStream, 0, true, false},
		{eventstore.StreamExists, 0, false, false},
		{eventstore.StreamExists, 3, true, true},
		{eventstore.Exact(3), 3, true, true},
		{eventstore.Exact(0), 0, false, false},
		{eventstore.Exact(2), 3, true, false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.ok, tc.expected.Check(tc.current, tc.exists), "%s against current=%d exists=%v", tc.expected, tc.current, tc.exists)
	}
}

// Issue 11 item 11: duplicate and classique tournaments cannot share a
// stream: "classique-" opens only classique tournaments' stream ids.
func TestSecurite_EspaceDeNomsDesTournois(t *testing.T) {
	cases := []struct {
		build func(string) (string, error)
		id    string
		name  string
	}{
		{streamname.TournoiStream, "X", "tournoi-X"},
		{streamname.TournoiStream, "classique-X", ""},
		{streamname.TournoiStream, "classique", "tournoi-classique"},
		{streamname.ClassiqueStream, "X", "tournoi-classique-X"},
		{streamname.ClassiqueStream, "classique-X", "tournoi-classique-classique-X"},
		{streamname.ClassiqueStream, "", ""},
	}
	for _, tc := range cases {
		name, err := tc.build(tc.id)
		if tc.name == "" {
			assert.ErrorIs(t, err, eventstore.ErrInvalidArgument, "id %q", tc.id)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tc.name, name)
	}
}
