package loadgen

import (
	"context"
	"crypto/rand"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
)

// postgresBaseline serves the kit's PostgreSQL references: /pg/get/N reads
// one stored value by its key, /pg/put inserts one value under a new key,
// each its own statement (one transaction, as a request of the appliance
// is), on a table of its own in url's database that it fills at start.
func postgresBaseline(e *echo.Echo, url string, n, size int) (func(), error) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, err
	}
	val := `{"id":"7d0f6b3a-58c4-4e1e-9d7e-2f1f0c9a1b2c","text":"` + strings.Repeat("x", max(0, size-60)) + `"}`
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DROP TABLE IF EXISTS baseline_values`, nil},
		{`CREATE TABLE baseline_values (id bigserial PRIMARY KEY, body jsonb NOT NULL)`, nil},
		{`INSERT INTO baseline_values (id, body) SELECT g, $1::jsonb FROM generate_series(0, $2::bigint - 1) g`, []any{val, n}},
		{`SELECT setval('baseline_values_id_seq', $1::bigint)`, []any{n}},
	} {
		if _, err := pool.Exec(ctx, q.sql, q.args...); err != nil {
			pool.Close()
			return nil, err
		}
	}
	e.GET("/pg/get/:n", func(c echo.Context) error {
		k, _ := strconv.Atoi(c.Param("n"))
		var body []byte
		if err := pool.QueryRow(c.Request().Context(), `SELECT body::text FROM baseline_values WHERE id = $1`, k%n).Scan(&body); err != nil {
			return err
		}
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, body)
	})
	e.POST("/pg/put", func(c echo.Context) error {
		noise := make([]byte, 2)
		_, _ = rand.Read(noise)
		body := val[:len(val)-2] + strconv.Itoa(int(noise[0])<<8|int(noise[1])) + `"}`
		var id int64
		if err := pool.QueryRow(c.Request().Context(), `INSERT INTO baseline_values (body) VALUES ($1::jsonb) RETURNING id`, body).Scan(&id); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]int64{"id": id})
	})
	return pool.Close, nil
}
