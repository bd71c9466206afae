package e2e

import (
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"contracts/internal/testtools"
)

// module is the module path go.mod declares.
const module = "contracts"

// goPackages is every package of the module (go list ./...), by its path
// inside the module ("contracts" for the root), with the module's
// packages it imports (tests not counted).
func goPackages(t *testing.T) map[string][]string {
	t.Helper()
	goTool := testtools.Need(t, "go")[0]
	cmd := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = testtools.RepoPath(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		var ours []string
		for _, imp := range f[1:] {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				ours = append(ours, inModule(imp))
			}
		}
		pkgs[inModule(f[0])] = ours
	}
	return pkgs
}

func inModule(path string) string {
	if path == module {
		return path
	}
	return strings.TrimPrefix(path, module+"/")
}

// architecture is docs/ARCHITECTURE.md.
func architecture(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(testtools.RepoPath(t, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// section is the text of a "## title" section of doc.
func section(t *testing.T, doc, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n## "+title+"\n")
	if !ok {
		t.Fatalf("ARCHITECTURE has no section %q", title)
	}
	text, _, _ := strings.Cut(rest, "\n## ")
	return text
}

// A bullet of the package list starts with the packages it is about.
var packageBullet = regexp.MustCompile("(?m)^- ((?:`[^`]+`(?:, )?)+)")

// TestArchitectureNamesEveryPackage holds the map true: the bullets of
// ARCHITECTURE's "Packages" name every package of the module, and no
// package that does not exist.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	pkgs := goPackages(t)
	named := map[string]bool{}
	for _, m := range packageBullet.FindAllStringSubmatch(section(t, architecture(t), "Packages"), -1) {
		for _, name := range strings.Split(m[1], ", ") {
			name = strings.Trim(name, "`")
			if named[name] {
				t.Errorf("ARCHITECTURE names %s twice", name)
			}
			named[name] = true
			if _, ok := pkgs[name]; !ok {
				t.Errorf("ARCHITECTURE names %s, which go list ./... does not list", name)
			}
		}
	}
	var missing []string
	for p := range pkgs {
		if !named[p] {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("ARCHITECTURE's package list misses %s", strings.Join(missing, ", "))
	}
}

// An arrow of the import drawing: "from → to, to" (a name ending in /...
// is the package and every one below it).
var importArrow = regexp.MustCompile(`(\S+) → ((?:[^,\s]+(?:, )?)+)`)

// TestArchitectureImports holds the import drawing true: for each arrow,
// the packages it starts from import, of the module's packages outside
// their own family, exactly the ones it points to (a package named on its
// own takes its arrow from the line that names it, not from a family's).
func TestArchitectureImports(t *testing.T) {
	pkgs := goPackages(t)
	doc := architecture(t)
	_, rest, _ := strings.Cut(doc, "\n```imports\n")
	drawing, _, ok := strings.Cut(rest, "\n```")
	if !ok {
		t.Fatal("ARCHITECTURE has no ```imports block")
	}
	arrows := map[string][]string{}
	for _, m := range importArrow.FindAllStringSubmatch(drawing, -1) {
		to := strings.Split(m[2], ", ")
		if to[0] == "none" {
			to = nil
		}
		arrows[m[1]] = to
	}
	if _, ok := arrows["internal/config"]; !ok {
		t.Error("the drawing shows no arrow from internal/config")
	}
	covers := func(pattern, pkg string) bool {
		if family, ok := strings.CutSuffix(pattern, "/..."); ok {
			return pkg == family || strings.HasPrefix(pkg, family+"/")
		}
		return pkg == pattern
	}
	// from is the arrow that speaks for pkg: its own, else its closest
	// family's.
	from := func(pkg string) string {
		if _, ok := arrows[pkg]; ok {
			return pkg
		}
		best := ""
		for p := range arrows {
			if covers(p, pkg) && len(p) > len(best) {
				best = p
			}
		}
		return best
	}
	used := map[string]map[string]bool{}
	for pkg, imports := range pkgs {
		src := from(pkg)
		if src == "" {
			continue
		}
		if used[src] == nil {
			used[src] = map[string]bool{}
		}
		for _, imp := range imports {
			if covers(src, imp) {
				continue // within its own family
			}
			i := slices.IndexFunc(arrows[src], func(to string) bool { return covers(to, imp) })
			if i < 0 {
				t.Errorf("%s imports %s; the drawing's arrow from %s does not show it", pkg, imp, src)
				continue
			}
			used[src][arrows[src][i]] = true
		}
	}
	for src, to := range arrows {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(pkgs)), func(p string) bool { return covers(src, p) }) {
			t.Errorf("the drawing starts an arrow from %s, which is no package", src)
		}
		for _, d := range to {
			if !used[src][d] {
				t.Errorf("the drawing shows %s → %s, which no import makes", src, d)
			}
		}
	}
}
