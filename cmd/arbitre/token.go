package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"arbitre/domain/acces"
	"arbitre/domain/eventstore"
)

func init() {
	var flags storeFlags
	var role, tables, tournoi, label string
	var ttl time.Duration
	create := &cobra.Command{
		Use:   "create --role director|arbiter|commission [--tables 1-40] [--tournoi ID] [--ttl 72h]",
		Short: "Issue a bearer token (printed once; only its fingerprint is stored)",
		Args:  cobra.NoArgs,
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
			store, _, err := flags.openStore(ctx)
			if err != nil {
				return err
			}
			defer store.Close()
			reg := eventstore.NewRegistry()
			if err := acces.RegisterEvents(reg); err != nil {
				return err
			}
			svc := &acces.Service{Store: store, Registry: reg, Clock: eventstore.SystemClock}
			secret, ev, err := svc.Emettre(ctx, acces.Demande{Role: r, Tournoi: tournoi, Tables: t, Duree: ttl, Libelle: label},
				eventstore.Metadata{Actor: "cli", Role: string(acces.Directeur)})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "token %s: role %s, tournoi %q, tables %q, expires %s\n",
				ev.ID, ev.Role, ev.Tournoi, ev.Tables, ev.Expire.Format(time.RFC3339))
			fmt.Fprintln(cmd.OutOrStdout(), secret)
			return nil
		},
	}
	flags.register(create)
	create.Flags().StringVar(&role, "role", "", "director, arbiter or commission")
	create.Flags().StringVar(&tables, "tables", "", "tables an arbiter corrects, e.g. 1-40 (default: all)")
	create.Flags().StringVar(&tournoi, "tournoi", "", "tournament the token is limited to (default: all)")
	create.Flags().StringVar(&label, "label", "", "who the token is for")
	create.Flags().DurationVar(&ttl, "ttl", 72*time.Hour, "validity")
	_ = create.MarkFlagRequired("role")
	cmd := &cobra.Command{Use: "token", Short: "Bearer tokens for directors, arbiters and the commission"}
	cmd.AddCommand(create)
	rootCmd.AddCommand(cmd)
}
