package acces

// Etat is what the registry holds, for the tests that compare it.
func (r *Registre) Etat() any {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return []any{r.parEmp, r.empDeID, r.revoques, r.position, r.ecarts, r.enfants}
}
