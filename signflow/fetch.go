package signflow

import (
	"io"
	"net/http"
)

// Fetch sends req with client and reads at most limit bytes of the answer,
// so that an outside service cannot make us hold more. err is the sending's
// or the reading's; the status is the caller's to sort.
func Fetch(client *http.Client, req *http.Request, limit int64) (status int, body []byte, err error) {
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, limit))
	return resp.StatusCode, body, err
}
