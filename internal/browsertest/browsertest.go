// Package browsertest drives real headless Chromium for browser tests:
// start it (skipping without chromium, failing under
// CONTRACTS_REQUIRE_TOOLS=1), reach a cross-site iframe, find elements by
// accessible role and name, type, wait and take screenshots.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
)

// Start starts headless Chromium with a fresh profile for the test and
// returns a tab's context; it skips without chromium (fails under
// CONTRACTS_REQUIRE_TOOLS=1).
func Start(t *testing.T) context.Context {
	t.Helper()
	path := testtools.Need(t, "chromium")[0]
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1100, 2400))
	ctx, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// Within bounds one step of a browser test.
func Within(t *testing.T, ctx context.Context, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, d)
	t.Cleanup(cancel)
	return ctx
}

// Frame attaches to the cross-site iframe whose URL starts with prefix.
// Chrome runs it in its own process, as a target of its own.
func Frame(t *testing.T, ctx context.Context, prefix string) context.Context {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			if info.Type == "iframe" && strings.HasPrefix(info.URL, prefix) {
				fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(info.TargetID))
				t.Cleanup(cancel)
				if err := chromedp.Do(fctx); err != nil {
					t.Fatal(err)
				}
				return fctx
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no iframe target for %s", prefix)
		}
		time.Sleep(50 * time.Millisecond) // polling the browser's target list
	}
}

// ByName finds elements by accessible role and name, as a user of a
// screen reader (or Testing Library's getByRole) would.
func ByName(role, name string) chromedp.QueryOption {
	return chromedp.ByFunc(func(ctx context.Context, t *chromedp.Target, n *chromedp.Node) ([]cdp.NodeID, error) {
		res, err := cdp.Call(ctx, t, accessibility.QueryAXTree, accessibility.QueryAXTreeParams{NodeID: n.NodeID, AccessibleName: name, Role: role})
		if err != nil {
			return nil, err
		}
		var ids []cdp.BackendNodeID
		for _, ax := range res.Nodes {
			if !ax.Ignored && ax.BackendDOMNodeID != 0 {
				ids = append(ids, ax.BackendDOMNodeID)
			}
		}
		if len(ids) == 0 {
			return nil, nil
		}
		pushed, err := cdp.Call(ctx, t, dom.PushNodesByBackendIDsToFrontend, dom.PushNodesByBackendIDsToFrontendParams{BackendNodeIDs: ids})
		return pushed.NodeIDs, err
	})
}

// Click clicks the element with the role and accessible name.
func Click(t *testing.T, ctx context.Context, role, name string) {
	t.Helper()
	if err := chromedp.Do(Within(t, ctx, 10*time.Second), chromedp.Click(role+" "+name, ByName(role, name))); err != nil {
		t.Fatalf("click %s %q: %v", role, name, err)
	}
}

// Type types text into the textbox with the accessible name, after clearing it.
func Type(t *testing.T, ctx context.Context, name, text string) {
	t.Helper()
	sel := "textbox " + name
	err := chromedp.Do(Within(t, ctx, 10*time.Second), chromedp.SetValue(sel, "", ByName("textbox", name)),
		chromedp.SendKeys(sel, text, ByName("textbox", name)))
	if err != nil {
		t.Fatalf("type into %q: %v", name, err)
	}
}

// WaitText waits until the visible text of ctx's page holds s. It asks
// again after errors, so it survives a navigation on the way.
func WaitText(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	js := fmt.Sprintf(`document.body !== null && document.body.innerText.includes(%q)`, s)
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := chromedp.Run(Within(t, ctx, 2*time.Second), chromedp.Evaluate[bool](js))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("text %q never shown (%v):\n%s", s, err, text)
		}
		time.Sleep(50 * time.Millisecond) // polling the browser
	}
}

// Screenshot writes a PNG of the whole tab, laid out width pixels wide, to
// $CONTRACTS_SCREENSHOTS/name.png when the variable is set.
func Screenshot(t *testing.T, ctx context.Context, name string, width int64) {
	t.Helper()
	dir := os.Getenv("CONTRACTS_SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
		t.Fatal(err)
	}
	height, err := chromedp.Run(ctx, chromedp.Evaluate[int64](`Math.ceil(document.documentElement.getBoundingClientRect().height)`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, max(height, 200))); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// WaitLocation waits until the tab's top window is at url (a navigation
// may destroy a poll running in the old page, so it asks again).
func WaitLocation(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		loc, err := chromedp.Run(Within(t, ctx, 2*time.Second), chromedp.Location())
		if err == nil && loc == url {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("top window at %s (%v), want %s", loc, err, url)
		}
		time.Sleep(50 * time.Millisecond) // polling the browser for its location
	}
}
