package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"arbitre/domain/federation"
	"arbitre/domain/federation/command"
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

	var id, principal, tournoi, site, partie, heure string
	var formule int
	var sites []string
	flagsDe := func(c *cobra.Command, flags *storeFlags, avecHeure bool) {
		flags.register(c)
		c.Flags().StringVar(&id, "jumelage", "", "`ID` du jumelage")
		if avecHeure {
			c.Flags().StringVar(&heure, "a", "", "heure du constat, RFC 3339 (par défaut maintenant), par exemple 2026-07-14T14:05:00+02:00")
		}
	}
	constat := func() (time.Time, error) {
		if heure == "" {
			return time.Now().UTC(), nil
		}
		a, err := time.Parse(time.RFC3339, heure)
		if err != nil {
			return a, fmt.Errorf("--a %q : heure RFC 3339 attendue, par exemple 2026-07-14T14:05:00+02:00", heure)
		}
		return a, nil
	}
	commande := func(flags *storeFlags, run func(ctx context.Context, app command.Twinning, a time.Time) error) func(*cobra.Command, []string) error {
		return func(c *cobra.Command, _ []string) error {
			a, err := constat()
			if err != nil {
				return err
			}
			return avecFederation(c.Context(), flags, func(apps federationApps) error { return run(c.Context(), apps.jumelages, a) })
		}
	}

	var creerFlags storeFlags
	creer := &cobra.Command{
		Use:     "creer --jumelage ID --formule 1|2 --principal SITE [--tournoi ID] --site SITE...",
		Short:   "Crée le jumelage : formule 1, un principal et ses satellites (§2.18.1) ; formule 2, des tournois comparables (§2.18.2)",
		Example: `  arbitre jumelage creer --data data --jumelage vichy-2026 --formule 1 --principal Vichy --tournoi V --site Lyon --site Nice`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage", "formule", "principal", "site"),
		RunE: commande(&creerFlags, func(ctx context.Context, app command.Twinning, _ time.Time) error {
			return app.Creer(ctx, id, federation.Formule(formule), principal, tournoi, sites, metadataCLI())
		}),
	}
	flagsDe(creer, &creerFlags, false)
	creer.Flags().IntVar(&formule, "formule", 0, "1 (satellites, §2.18.1) ou 2 (tournois comparables, §2.18.2)")
	creer.Flags().StringVar(&principal, "principal", "", "`SITE` principal, où les parties sont tirées")
	creer.Flags().StringSliceVar(&sites, "site", nil, "autre `SITE` jumelé, répétable")
	creer.Flags().StringVar(&tournoi, "tournoi", "", "`ID` du tournoi du principal dont les parties sont suivies en direct par les sites (arbitre serve --satellite-de)")

	var coupureFlags storeFlags
	coupure := &cobra.Command{
		Use:     "coupure --jumelage ID --site SITE --partie ID [--a HEURE]",
		Short:   "Note la coupure de la liaison d'un site pendant une partie (§2.18.1.B, §2.18.2.B)",
		Example: `  arbitre jumelage coupure --data data --jumelage vichy-2026 --site Lyon --partie V-3`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage", "site", "partie"),
		RunE: commande(&coupureFlags, func(ctx context.Context, app command.Twinning, a time.Time) error {
			return app.Couper(ctx, id, site, partie, a, metadataCLI())
		}),
	}
	flagsDe(coupure, &coupureFlags, true)
	coupure.Flags().StringVar(&site, "site", "", "`SITE` coupé")
	coupure.Flags().StringVar(&partie, "partie", "", "`ID` de la partie en cours")

	var retablirFlags storeFlags
	retablir := &cobra.Command{
		Use:     "retablissement --jumelage ID --site SITE [--a HEURE]",
		Short:   "Note le retour de la liaison : reprise en léger différé, ou la décision qu'impose une coupure de plus de 15 minutes",
		Example: `  arbitre jumelage retablissement --data data --jumelage vichy-2026 --site Lyon`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage", "site"),
		RunE: commande(&retablirFlags, func(ctx context.Context, app command.Twinning, a time.Time) error {
			return app.Retablir(ctx, id, site, a, metadataCLI())
		}),
	}
	flagsDe(retablir, &retablirFlags, true)
	retablir.Flags().StringVar(&site, "site", "", "`SITE` rétabli")

	var echeanceFlags storeFlags
	echeance := &cobra.Command{
		Use:     "echeance --jumelage ID [--a HEURE]",
		Short:   "Prend les décisions des coupures de plus de 15 minutes sans attendre la liaison (§2.18.1.B, §2.18.2.B)",
		Example: `  arbitre jumelage echeance --data data --jumelage vichy-2026`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("jumelage"),
		RunE: commande(&echeanceFlags, func(ctx context.Context, app command.Twinning, a time.Time) error {
			return app.Echeance(ctx, id, a, metadataCLI())
		}),
	}
	flagsDe(echeance, &echeanceFlags, true)

	var classementFlags storeFlags
	classement := &cobra.Command{
		Use:     "classement --jumelage ID [PAQUET...]",
		Short:   "Affiche en JSON le classement jumelé (§2.18.1.C, §2.18.2.C) des paquets donnés (arbitre centre export) et des résultats envoyés en ligne par les sites",
		Example: `  arbitre jumelage classement --data data --jumelage vichy-2026 vichy.zip lyon.zip nice.zip`,
		Args:    cobra.ArbitraryArgs,
		PreRunE: exigerOptions("jumelage"),
		RunE: func(c *cobra.Command, paquets []string) error {
			return avecFederation(c.Context(), &classementFlags, func(apps federationApps) error {
				donnes := make([][]byte, len(paquets))
				for i, f := range paquets {
					var err error
					if donnes[i], err = lireFichierPaquet(f); err != nil {
						return fmt.Errorf("jumelage classement %s : %w", f, err)
					}
				}
				cl, err := apps.jumelages.Classement(c.Context(), id, centres.ScoresDesPaquets(apps.registre, donnes, func(i int) string { return paquets[i] }))
				if err != nil {
					return fmt.Errorf("jumelage classement : %w", err)
				}
				return ecrireJSON(c.OutOrStdout(), cl)
			})
		},
	}
	flagsDe(classement, &classementFlags, false)

	cmd.AddCommand(creer, coupure, retablir, echeance, classement)
	rootCmd.AddCommand(cmd)
}
