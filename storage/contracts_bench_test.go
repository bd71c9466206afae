package storage_test

import (
	"testing"

	"contracts/storage/storagetest"
)

// BenchmarkListContracts measures list and search over 120,000 contracts
// on bbolt (storagetest.BenchListContracts). Run with e.g.
//
//	go test ./storage/ -run '^$' -bench ListContracts -benchtime 200x
func BenchmarkListContracts(b *testing.B) { storagetest.BenchListContracts(b, openStore(b)) }
