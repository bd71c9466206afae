package postgres_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres/pgtest"

	"github.com/jackc/pgx/v5"
)

// BenchmarkReadByToken is the embedded read of one of many contracts on PostgreSQL as a request makes it (AuthenticateTokenFor,
// then ContractAnswer), one at a time, with the CPU it costs this process
// (node-µs/op) and the database's server processes (pg-µs/op): figures
// that hold under the machine's other load, unlike ns/op; "kept" reads
// kept answers, "new" makes each answer. The cluster must
// run on this machine (/proc).
//
//	go test ./storage/postgres -run '^$' -bench ReadByToken -benchtime 3000x
func BenchmarkReadByToken(b *testing.B) {
	b.Run("kept", func(b *testing.B) { benchReadByToken(b, false) })
	b.Run("new", func(b *testing.B) { benchReadByToken(b, true) })
}

// benchReadByToken reads kept answers, or with cold, answers of a name
// not read before: the whole read, and the answer kept.
func benchReadByToken(b *testing.B, cold bool) {
	url := pgtest.NewDatabase(b)
	s := pgtest.OpenURL(b, url)
	w := fixture.NewStandardOn(b, s)
	ids := make([]string, 256)
	for i := range ids {
		ids[i] = w.Contract(b).ID
	}
	token, err := w.Service.IssueToken(w.AppA.ID, w.AppA.Secret)
	if err != nil {
		b.Fatal(err)
	}
	encode := func(v *signflow.ContractView) []byte { return []byte(v.Status + v.Template.ID) }
	name := "bench"
	read := func(id string) {
		_, acc, err := w.Service.AuthenticateTokenFor(token, signflow.ScopeContractsRead)
		if err == nil {
			_, err = w.Service.ContractAnswer(acc, id, name, encode)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, id := range ids {
		read(id)
	}
	pg0, node0 := serverCPU(b, backends(b, url)), nodeCPU()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if cold {
			name = "bench" + strconv.Itoa(i)
		}
		read(ids[(i*7919)%len(ids)])
	}
	b.StopTimer()
	node := nodeCPU() - node0
	var pg time.Duration
	for pid, t := range serverCPU(b, backends(b, url)) {
		pg += t - pg0[pid] // a connection opened meanwhile counts whole
	}
	b.ReportMetric(float64(pg.Microseconds())/float64(b.N), "pg-µs/op")
	b.ReportMetric(float64(node.Microseconds())/float64(b.N), "node-µs/op")
}

// backends are the server processes of the database's connections.
func backends(b *testing.B, url string) []int {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
	if err != nil {
		b.Fatal(err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		b.Fatal(err)
	}
	var out []int
	for _, p := range pids {
		out = append(out, int(p))
	}
	return out
}

// serverCPU is the user and system time of each process so far.
func serverCPU(b *testing.B, pids []int) map[int]time.Duration {
	out := map[int]time.Duration{}
	for _, pid := range pids {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			b.Skipf("the database's processes are not on this machine: %v", err)
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
		for _, i := range []int{11, 12} { // utime, stime after the state field
			n, _ := strconv.ParseInt(f[i], 10, 64)
			out[pid] += time.Duration(n) * (time.Second / 100) // USER_HZ
		}
	}
	return out
}

func nodeCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
