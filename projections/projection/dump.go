package projection

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Dump renders every table of a projection database (checkpoints included)
// as text, tables by name and rows in full column order, so two databases
// hold the same state exactly when their dumps are byte-identical.
func Dump(ctx context.Context, db *sql.DB) ([]byte, error) {
	tables, err := tableNames(ctx, db)
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	for _, table := range tables {
		if err := dumpTable(ctx, db, table, &out); err != nil {
			return nil, fmt.Errorf("dumping %s: %w", table, err)
		}
	}
	return []byte(out.String()), nil
}

func tableNames(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, rows.Err()
}

func dumpTable(ctx context.Context, db *sql.DB, table string, out *strings.Builder) error {
	probe, err := db.QueryContext(ctx, `SELECT * FROM "`+table+`" LIMIT 0`)
	if err != nil {
		return err
	}
	cols, err := probe.Columns()
	probe.Close()
	if err != nil {
		return err
	}
	order := make([]string, len(cols))
	for i := range cols {
		order[i] = fmt.Sprint(i + 1)
	}
	rows, err := db.QueryContext(ctx, `SELECT * FROM "`+table+`" ORDER BY `+strings.Join(order, ", "))
	if err != nil {
		return err
	}
	defer rows.Close()
	fmt.Fprintf(out, "table %s (%s)\n", table, strings.Join(cols, ", "))
	values := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range values {
		ptrs[i] = &values[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range values {
			if i > 0 {
				out.WriteString("\t")
			}
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			fmt.Fprintf(out, "%v", v)
		}
		out.WriteString("\n")
	}
	return rows.Err()
}
