package apidocs_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/assets"
	"contracts/internal/testtools"

	"github.com/chromedp/chromedp"
)

// TestDocsPageInChromium loads /docs in headless Chromium under its CSP:
// Redoc must render the operations of each document, and the console must
// stay clean but for the refusal of Redoc's footer logo from its CDN (the
// CSP keeps the page from calling out). CONTRACTS_DOCS_SCREENSHOT=dir saves
// a screenshot of each page.
func TestDocsPageInChromium(t *testing.T) {
	path := testtools.Need(t, "chromium")[0]
	for _, l := range listeners {
		t.Run(l.name, func(t *testing.T) {
			srv := newServer(t, l.document, l.baseURL, l.withPath)
			alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
				chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
				chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
				chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
			defer cancelAlloc()
			tab, cancelTab := chromedp.NewContext(alloc)
			defer cancelTab()
			ctx, cancel := context.WithTimeout(tab, 60*time.Second)
			defer cancel()

			var mu sync.Mutex
			var console []string
			listen, stopListening := context.WithCancel(ctx)
			messages := chromedp.Console(listen)
			done := make(chan struct{})
			go func() {
				defer close(done)
				for m, err := range messages {
					if err != nil {
						return
					}
					mu.Lock()
					console = append(console, m.String())
					mu.Unlock()
				}
			}()

			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/docs")); err != nil {
				t.Fatalf("open /docs: %v", err)
			}
			rendered := `document.body.innerText.includes("Create a contract from a template")`
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](rendered, chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
				text, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText`))
				t.Fatalf("Redoc did not render the reference: %v\n%s", err, text)
			}
			time.Sleep(300 * time.Millisecond) // let late console messages arrive
			text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			if err != nil {
				t.Fatal(err)
			}
			wants := []string{"Download the contract as PDF", "API docs by Redocly"}
			if l.name == "embedded" {
				wants = append(wants, "Obtain an access token", "Open a signing session for one party", "bearerAuth")
			} else {
				wants = append(wants, "Check the key", "List contracts", "X-API-Key")
			}
			for _, w := range wants {
				if !strings.Contains(text, w) {
					t.Errorf("the rendered reference lacks %q", w)
				}
			}
			if dir := os.Getenv("CONTRACTS_DOCS_SCREENSHOT"); dir != "" {
				if shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
					_ = os.WriteFile(dir+"/docs-"+l.name+"-redoc-"+assets.RedocVersion+".png", shot, 0o644)
				}
			}
			stopListening()
			<-done
			mu.Lock()
			defer mu.Unlock()
			for _, m := range console {
				if os.Getenv("CONTRACTS_DOCS_CONSOLE") != "" {
					t.Log(m)
				}
				if strings.HasPrefix(m, "error") || strings.HasPrefix(m, "exception") {
					if !strings.Contains(m, "cdn.redoc.ly") {
						t.Errorf("console: %s", m)
					}
				}
			}
		})
	}
}
