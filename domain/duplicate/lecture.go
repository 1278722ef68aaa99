package duplicate

// Tournoi is the tournament the game belongs to ("" for a stand-alone game).
func (p *Partie) Tournoi() string { return p.tournoi }

// Numero is the game's number in its tournament (0 when unnumbered).
func (p *Partie) Numero() int { return p.numero }
