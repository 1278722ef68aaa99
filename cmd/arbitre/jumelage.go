package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
	"arbitre/domain/federation/command"
	"arbitre/domain/federation/query"
	"arbitre/projections/centres"
)

// The commands of the tournaments twinned over the Internet (guide §2.18,
// docs/federation.md), run on the principal's data.
func init() {
	cmd := &cobra.Command{Use: "jumelage", Short: "Tournois jumelés par Internet (guide §2.18) : créer, noter coupures et rétablissements, classer",
		Example: `  arbitre jumelage creer --data data --jumelage vichy-2026 --formule 1 --principal Vichy --site Lyon --site Nice
  arbitre jumelage coupure --data data --jumelage vichy-2026 --site Lyon --partie V-3
  arbitre jumelage retablissement --data data --jumelage vichy-2026 --site Lyon
  arbitre jumelage classement --data data --jumelage vichy-2026 vichy.zip lyon.zip nice.zip`}
	var o optionsJumelage
	cmd.AddCommand(o.creer(), o.coupure(), o.retablissement(), o.echeance(), o.classement())
	rootCmd.AddCommand(cmd)
}

// optionsJumelage holds the flags of the jumelage subcommands.
type optionsJumelage struct {
	id, principal, tournoi, site, partie, heure string
	formule                                     int
	sites                                       []string
}

// commun registers the store's flags and --jumelage on c, and --a when the
// command notes a fact at a time.
func (o *optionsJumelage) commun(c *cobra.Command, flags *storeflags.Flags, avecHeure bool) {
	flags.Register(c)
	c.Flags().StringVar(&o.id, "jumelage", "", "`ID` du jumelage")
	if avecHeure {
		c.Flags().StringVar(&o.heure, "a", "", "heure du constat, RFC 3339 (par défaut maintenant), par exemple 2026-07-14T14:05:00+02:00")
	}
}

// constat is the time of the fact noted: --a, or now. It is a wall-clock
// time only: this process ends at once, so no reading of its monotonic
// clock would ever be compared (the cut's length is read on the wall
// clock, guide §2.18).
func (o *optionsJumelage) constat() (eventstore.Instant, error) {
	if o.heure == "" {
		return eventstore.Instant{Wall: time.Now().UTC()}, nil
	}
	a, err := time.Parse(time.RFC3339, o.heure)
	if err != nil {
		return eventstore.Instant{}, fmt.Errorf("--a %q : heure RFC 3339 attendue, par exemple 2026-07-14T14:05:00+02:00", o.heure)
	}
	return eventstore.Instant{Wall: a}, nil
}

// commande runs run on the twinnings' use cases of flags' store, at the
// time of the fact noted.
func (o *optionsJumelage) commande(flags *storeflags.Flags, run func(ctx context.Context, app *command.Twinning, a eventstore.Instant) error) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, _ []string) error {
		a, err := o.constat()
		if err != nil {
			return err
		}
		return avecFederation(c.Context(), flags, func(apps federationApps) error { return run(c.Context(), apps.jumelages, a) })
	}
}

// creer is `jumelage creer`.
func (o *optionsJumelage) creer() *cobra.Command {
	var flags storeflags.Flags
	c := &cobra.Command{
		Use:     "creer --jumelage ID --formule 1|2 --principal SITE [--tournoi ID] --site SITE...",
		Short:   "Crée le jumelage : formule 1, un principal et ses satellites (§2.18.1) ; formule 2, des tournois comparables (§2.18.2)",
		Example: `  arbitre jumelage creer --data data --jumelage vichy-2026 --formule 1 --principal Vichy --tournoi V --site Lyon --site Nice`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage", "formule", "principal", "site"),
		RunE: o.commande(&flags, func(ctx context.Context, app *command.Twinning, _ eventstore.Instant) error {
			return app.Creer(ctx, command.Creer{Jumelage: o.id, Formule: federation.Formule(o.formule), Principal: o.principal, Tournoi: o.tournoi, Sites: o.sites})
		}),
	}
	o.commun(c, &flags, false)
	c.Flags().IntVar(&o.formule, "formule", 0, "1 (satellites, §2.18.1) ou 2 (tournois comparables, §2.18.2)")
	c.Flags().StringVar(&o.principal, "principal", "", "`SITE` principal, où les parties sont tirées")
	c.Flags().StringSliceVar(&o.sites, "site", nil, "autre `SITE` jumelé, répétable")
	c.Flags().StringVar(&o.tournoi, "tournoi", "", "`ID` du tournoi du principal dont les parties sont suivies en direct par les sites (arbitre serve --satellite-de)")
	return c
}

// coupure is `jumelage coupure`.
func (o *optionsJumelage) coupure() *cobra.Command {
	var flags storeflags.Flags
	c := &cobra.Command{
		Use:     "coupure --jumelage ID --site SITE --partie ID [--a HEURE]",
		Short:   "Note la coupure de la liaison d'un site pendant une partie (§2.18.1.B, §2.18.2.B)",
		Example: `  arbitre jumelage coupure --data data --jumelage vichy-2026 --site Lyon --partie V-3`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage", "site", "partie"),
		RunE: o.commande(&flags, func(ctx context.Context, app *command.Twinning, a eventstore.Instant) error {
			return app.Couper(ctx, command.Couper{Jumelage: o.id, Site: o.site, Partie: o.partie, Instant: a})
		}),
	}
	o.commun(c, &flags, true)
	c.Flags().StringVar(&o.site, "site", "", "`SITE` coupé")
	c.Flags().StringVar(&o.partie, "partie", "", "`ID` de la partie en cours")
	return c
}

// retablissement is `jumelage retablissement`.
func (o *optionsJumelage) retablissement() *cobra.Command {
	var flags storeflags.Flags
	c := &cobra.Command{
		Use:     "retablissement --jumelage ID --site SITE [--a HEURE]",
		Short:   "Note le retour de la liaison : reprise en léger différé, ou la décision qu'impose une coupure de plus de 15 minutes",
		Example: `  arbitre jumelage retablissement --data data --jumelage vichy-2026 --site Lyon`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage", "site"),
		RunE: o.commande(&flags, func(ctx context.Context, app *command.Twinning, a eventstore.Instant) error {
			return app.Retablir(ctx, command.Retablir{Jumelage: o.id, Site: o.site, Instant: a})
		}),
	}
	o.commun(c, &flags, true)
	c.Flags().StringVar(&o.site, "site", "", "`SITE` rétabli")
	return c
}

// echeance is `jumelage echeance`.
func (o *optionsJumelage) echeance() *cobra.Command {
	var flags storeflags.Flags
	c := &cobra.Command{
		Use:     "echeance --jumelage ID [--a HEURE]",
		Short:   "Prend les décisions des coupures de plus de 15 minutes sans attendre la liaison (§2.18.1.B, §2.18.2.B)",
		Example: `  arbitre jumelage echeance --data data --jumelage vichy-2026`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage"),
		RunE: o.commande(&flags, func(ctx context.Context, app *command.Twinning, a eventstore.Instant) error {
			return app.Echeance(ctx, command.Echeance{Jumelage: o.id, Instant: a})
		}),
	}
	o.commun(c, &flags, true)
	return c
}

// classement is `jumelage classement`.
func (o *optionsJumelage) classement() *cobra.Command {
	var flags storeflags.Flags
	c := &cobra.Command{
		Use:     "classement --jumelage ID [PAQUET...]",
		Short:   "Affiche en JSON le classement jumelé (§2.18.1.C, §2.18.2.C) des paquets donnés (arbitre centre export) et des résultats envoyés en ligne par les sites",
		Example: `  arbitre jumelage classement --data data --jumelage vichy-2026 vichy.zip lyon.zip nice.zip`,
		Args:    cobra.ArbitraryArgs,
		PreRunE: exigerOptions("jumelage"),
		RunE: func(c *cobra.Command, paquets []string) error {
			return avecFederation(c.Context(), &flags, func(apps federationApps) error {
				donnes := make([][]byte, len(paquets))
				for i, f := range paquets {
					var err error
					if donnes[i], err = lireFichierPaquet(f); err != nil {
						return fmt.Errorf("jumelage classement %s : %w", f, err)
					}
				}
				cl, err := apps.lectures.ClassementJumele(c.Context(), query.ClassementJumele{Jumelage: o.id,
					Donnes: centres.ScoresDesPaquets(apps.registre, donnes, func(i int) string { return paquets[i] })})
				if err != nil {
					return fmt.Errorf("jumelage classement : %w", err)
				}
				return ecrireJSON(c.OutOrStdout(), cl)
			})
		},
	}
	o.commun(c, &flags, false)
	return c
}
