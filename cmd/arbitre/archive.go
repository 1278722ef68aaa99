package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/acces"
	"arbitre/domain/archive"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/repository"
	"arbitre/projections/classique"
	"arbitre/projections/export"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
	"arbitre/projections/readmodels"
	"arbitre/projections/standings"
)

// Formats of `archive export`.
const (
	formatCSV  = "csv"
	formatJSON = "json"
	formatZip  = "zip"
)

func init() {
	archiveCmd := &cobra.Command{Use: "archive", Short: "Exporte les résultats d'un tournoi, importe ceux des tournois passés",
		Example: "  arbitre archive export --tournoi open-2026 --format zip -o open-2026.zip --data data\n  arbitre archive import vichy-2019.csv --data data"}
	var flags storeflags.Flags
	var lexPath, tournoi, format, sortie string
	exportCmd := &cobra.Command{
		Use:   "export --tournoi ID [--format csv|json|zip] [-o FICHIER]",
		Short: "Exporte les résultats d'un tournoi en CSV, en JSON ou en zip (CSV, JSON et la GCG de chaque partie classique)",
		Long: `export écrit les résultats du tournoi ID (docs/archive.md) : en duplicate, pour chaque joueur, son
score et son rang dans chaque partie, son cumul et son pourcentage du top ; en classique, pour chaque joueur,
ses rondes, adversaires, scores, points de match et sa cote avant et après le tournoi. Le CSV sépare les
colonnes par « ; », est en UTF-8 avec une ligne d'en-tête, et se relit avec « arbitre archive import ».
Les vues sont reconstruites à part depuis le journal : la commande ne dérange pas un serveur en marche.`,
		Example: "  arbitre archive export --tournoi open-2026 --data data > open-2026.csv\n  arbitre archive export --tournoi sim-3 --format zip -o sim-3.zip --data data",
		Args:    aucunArgument,
		PreRunE: exigerOptions("tournoi"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := runArchiveExport(cmd, &flags, lexPath, tournoi, format, sortie); err != nil {
				return fmt.Errorf("archive export : %w", err)
			}
			return nil
		},
	}
	flags.AddFlags(exportCmd)
	lexiconFlag(exportCmd, &lexPath)
	exportCmd.Flags().StringVar(&tournoi, "tournoi", "", "`ID` du tournoi à exporter")
	exportCmd.Flags().StringVar(&format, "format", formatCSV, "`FORMAT` : csv, json ou zip")
	exportCmd.Flags().StringVarP(&sortie, "out", "o", "", "`FICHIER` où écrire (par défaut la sortie standard)")

	var importFlags storeflags.Flags
	importCmd := &cobra.Command{
		Use:   "import FICHIER.csv|FICHIER.json",
		Short: "Importe dans l'archive les résultats d'un tournoi passé, au format CSV ou JSON de l'export",
		Long: `import vérifie tout le fichier avant d'écrire : une ligne fautive est nommée par son numéro (en JSON,
la ligne où commence l'enregistrement) et rien n'est importé. Un fichier qui commence par « { » est lu comme JSON. Le fichier est enregistré en une fois, comme événements qui disent d'où vient chaque
résultat (fichier, empreinte, ligne) ; importer deux fois le même fichier ne change rien. Les vues de
l'archive (historique, cotes, face-à-face) le prennent comme un tournoi joué ici.`,
		Example: "  arbitre archive import vichy-2019.csv --data data\n  arbitre archive import lyon-2018.json --data data",
		Args:    argumentsExacts(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := runArchiveImport(cmd, &importFlags, args[0]); err != nil {
				return fmt.Errorf("archive import : %w", err)
			}
			return nil
		},
	}
	importFlags.Register(importCmd)
	archiveCmd.AddCommand(exportCmd, importCmd)
	rootCmd.AddCommand(archiveCmd)
}

func runArchiveExport(cmd *cobra.Command, flags *storeflags.Flags, lexPath, tournoi, format, sortie string) error {
	if format != formatCSV && format != formatJSON && format != formatZip {
		return fmt.Errorf("--format vaut csv, json ou zip, pas %q", format)
	}
	ctx := cmd.Context()
	ws, err := openWorkspace(ctx, flags, []string{lexPath})
	if err != nil {
		return err
	}
	defer ws.store.Close()
	lectures, fermer, err := vuesDeLArchive(ctx, ws.store, ws.registry)
	if err != nil {
		return err
	}
	defer fermer()
	d, err := export.Construire(ctx, lectures, ws.store, ws.registry, tournoi)
	if err != nil {
		return err
	}
	var out io.Writer = cmd.OutOrStdout()
	if sortie != "" {
		f, err := os.Create(sortie)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	switch format {
	case formatJSON:
		return archive.EcrireJSON(out, d)
	case formatZip:
		tournois, matchs, err := depotsClassiques(ws.lexiques.Defaut(), ws.store)
		if err != nil {
			return err
		}
		return export.Zip(ctx, out, ws.store, ws.registry, tournois, matchs, d)
	}
	return archive.EcrireCSV(out, d)
}

// vuesDeLArchive builds the archive's read models (duplicate standings,
// cotes, history) from the whole log in a temporary database, apart from
// a running server's, and returns their readers.
func vuesDeLArchive(ctx context.Context, store eventstore.Reader, reg *eventstore.Registry) (export.Lectures, func(), error) {
	dir, err := os.MkdirTemp("", "arbitre-archive-")
	if err != nil {
		return export.Lectures{}, nil, err
	}
	db, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	if err != nil {
		os.RemoveAll(dir)
		return export.Lectures{}, nil, err
	}
	fermer := func() { db.Close(); os.RemoveAll(dir) }
	runners, err := readmodels.Runners(ctx, db, reg, store, standings.Name, classique.CotesName, historique.Name)
	for i := 0; err == nil && i < len(runners); i++ {
		_, err = runners[i].CatchUp(ctx, nil)
	}
	if err != nil {
		fermer()
		return export.Lectures{}, nil, err
	}
	return export.Lectures{Historique: historique.NewLecteur(projection.Lecture(runners, historique.Name)),
		Classements: standings.NewLecteur(projection.Lecture(runners, standings.Name))}, fermer, nil
}

func runArchiveImport(cmd *cobra.Command, flags *storeflags.Flags, fichier string) error {
	contenu, err := lireBorne(fichier, archive.MaxOctets)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	ws, err := openWorkspace(ctx, flags, nil)
	if err != nil {
		return err
	}
	defer ws.store.Close()
	b, err := archive.Importer(ctx, repository.Streams{Store: ws.store, Registry: ws.registry}, filepath.Base(fichier), contenu,
		eventstore.Metadata{Actor: "cli", Role: string(acces.Directeur)})
	if err != nil {
		return err
	}
	if b.DejaImporte {
		fmt.Fprintf(cmd.OutOrStdout(), "tournoi %s %s : ce fichier (empreinte %.12s) est déjà importé, rien n'a changé\n", b.Genre, b.Tournoi, b.Empreinte)
		return nil
	}
	fmt.Fprintf(cmd.OutOrStdout(), "tournoi %s %s : %d lignes importées (empreinte %.12s)\n", b.Genre, b.Tournoi, b.Lignes, b.Empreinte)
	return nil
}

// lireBorne reads at most max+1 bytes of a file: a file over the bound
// (a huge file, /dev/zero, a pipe that never ends) is read no further and
// refused by whoever checks the size, without holding it in memory.
func lireBorne(fichier string, max int64) ([]byte, error) {
	f, err := os.Open(fichier)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max+1))
}
