package movegen

// CasesEntrees is the number of squares the walk entered during g's last
// generation (tests only).
func CasesEntrees(g *Generator) int { return g.cases }
