package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
)

func init() {
	var flags storeflags.Flags
	var role, tables, tournoi, label, centre string
	var ttl time.Duration
	create := &cobra.Command{
		Use:   "create --role directeur|arbitre|commission|centre [--tables 1-40] [--tournoi ID] [--centre NOM] [--ttl 72h]",
		Short: "Émet un jeton d'accès (affiché une fois ; seule son empreinte est enregistrée)",
		Example: `  arbitre token create --role directeur --data data
  arbitre token create --role arbitre --tables 1-40 --tournoi open-2026 --ttl 12h --label "arbitre salle B"
  arbitre token create --role centre --tournoi simultane-2026 --centre Brest --label "club de Brest"`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("role"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := acces.ParseRole(role)
			if err != nil {
				return err
			}
			t, err := acces.ParseTables(tables)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			store, _, err := flags.Open(ctx)
			if err != nil {
				return err
			}
			defer store.Close()
			reg := eventstore.NewRegistry()
			if err := acces.RegisterEvents(reg); err != nil {
				return err
			}
			svc := &acces.Service{Store: store, Registry: reg, Clock: eventstore.SystemClock}
			secret, ev, err := svc.Emettre(ctx, acces.Demande{Role: r, Tournoi: tournoi, Tables: t, Duree: ttl, Libelle: label, Centre: centre},
				eventstore.Metadata{Actor: "cli", Role: string(acces.Directeur)})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "jeton %s : rôle %s, tournoi %q, tables %q, expire le %s\n",
				ev.ID, ev.Role, ev.Tournoi, ev.Tables, ev.Expire.Format(time.RFC3339))
			fmt.Fprintln(cmd.OutOrStdout(), secret)
			return nil
		},
	}
	flags.Register(create)
	create.Flags().StringVar(&role, "role", "", "`RÔLE` : directeur (ou director), arbitre (ou arbiter), commission ou centre")
	create.Flags().StringVar(&centre, "centre", "", "`NOM` du centre d'un jeton de centre (guide §2.17), avec --tournoi l'épreuve")
	create.Flags().StringVar(&tables, "tables", "", "`TABLES` que corrige un arbitre, par exemple 1-40 (par défaut toutes)")
	create.Flags().StringVar(&tournoi, "tournoi", "", "`ID` du tournoi auquel le jeton est limité (par défaut tous)")
	create.Flags().StringVar(&label, "label", "", "à qui est destiné le jeton")
	create.Flags().DurationVar(&ttl, "ttl", 72*time.Hour, "durée de validité (au plus 30 jours)")
	cmd := &cobra.Command{Use: "token", Short: "Jetons d'accès des directeurs, arbitres et de la commission",
		Example: "  arbitre token create --role commission --data data"}
	cmd.AddCommand(create)
	rootCmd.AddCommand(cmd)
}
