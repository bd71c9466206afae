package postgres

import (
	"context"
	"fmt"
	"strings"
)

// recordTables are the tables of records, by the name of the bbolt bucket
// that holds the same records; the others are rebuilt from them.
var recordTables = map[string]string{"meta": "meta", "owners": "owners", "claims": "claims", "templates": "templates",
	"template_versions": "template_versions",
	"apps":              "apps", "keys": "api_keys", "contracts": "contracts", "sessions": "sessions", "audit": "audit",
	"deliveries": "deliveries", "cabinet_logins": "cabinet_logins", "cabinet_sessions": "cabinet_sessions", "stamps": "stamps", "timers": "timers",
	"receipts": "receipts", "provider_txs": "provider_txs", "merchants": "merchants"}

// RecordCounts counts the rows of each table of records, by the name of
// the bbolt bucket that holds the same records (storage.DB.ExportCounts).
func (s *Store) RecordCounts(ctx context.Context) (map[string]int, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	var parts []string
	var names []string
	for bucket, table := range recordTables {
		parts = append(parts, fmt.Sprintf("(SELECT count(*) FROM %s)", table))
		names = append(names, bucket)
	}
	counts := make([]int64, len(parts))
	dest := make([]any, len(parts))
	for i := range counts {
		dest[i] = &counts[i]
	}
	if err := s.pool.QueryRow(ctx, "SELECT "+strings.Join(parts, ", ")).Scan(dest...); err != nil {
		return nil, err
	}
	out := map[string]int{}
	for i, name := range names {
		out[name] = int(counts[i])
	}
	return out, nil
}

// ContinueSequences moves the contract sequence past the highest sequence
// number stored, so that contracts copied in keep their numbers and new
// ones follow them.
func (s *Store) ContinueSequences(ctx context.Context) error {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, `SELECT setval('contract_seq', max(seq)) FROM contracts HAVING max(seq) IS NOT NULL`)
	return err
}
