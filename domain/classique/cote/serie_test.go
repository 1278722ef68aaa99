package cote

import (
	"arbitre/domain/erreur"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSerieThresholds(t *testing.T) {
	th := DefaultThresholds()
	tests := []struct {
		cote int
		want Serie
	}{
		{2200, SerieJoker}, {1800, SerieJoker}, {1799, SerieA}, {1400, SerieA},
		{1399, SerieB}, {1000, SerieB}, {999, SerieC}, {600, SerieC}, {100, SerieC},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, th.SerieOf(tt.cote), "cote %d", tt.cote)
	}
}

func TestSeriesAreRecomputedFromCurrentCotes(t *testing.T) {
	series, err := Series(map[PlayerID]int{"ana": 1850, "bob": 600}, Thresholds{Joker: 1900, A: 1500, B: 500})
	require.NoError(t, err)
	assert.Equal(t, map[PlayerID]Serie{"ana": SerieA, "bob": SerieB}, series)
}

func TestThresholdsMustDecrease(t *testing.T) {
	_, err := Series(nil, Thresholds{Joker: 1000, A: 1000, B: 500})
	assert.Equal(t, CodeInvalidThresholds, erreur.CodeOf(err))
}
