package postgres_test

import (
	"context"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// Schema 3 makes every template stored at schema 2 version 1, kept among
// the versions; the contracts made before it read that version, and the
// template takes a second one.
func TestSchema3MakesTemplatesVersionOne(t *testing.T) {
	url := pgtest.NewDatabase(t)
	s := pgtest.OpenURL(t, url)
	w := fixture.NewStandardOn(t, s)
	c, access := w.Contract(t), w.Access(t, w.AppA)
	ctx := context.Background()
	if _, err := postgres.Pool(s).Exec(ctx, `DROP TABLE template_versions;
		UPDATE templates SET data = (data::jsonb - 'version')::json;
		UPDATE schema_version SET version = 2`); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s2 := pgtest.OpenURL(t, url)
	if v, err := s2.SchemaVersion(); err != nil || v != 3 {
		t.Fatalf("schema %d (%v) after reopening", v, err)
	}
	svc := signflow.NewService(s2, w.Options)
	for _, tpl := range []*signflow.Template{w.Template, w.Other, w.Draft} {
		versions, err := svc.AdminTemplateVersions(tpl.ID)
		if err != nil || len(versions) != 1 || versions[0].Version != 1 || versions[0].Body != tpl.Body || len(versions[0].Fields) != len(tpl.Fields) {
			t.Fatalf("template %s: %d versions (%v)", tpl.ID, len(versions), err)
		}
	}
	v, err := svc.Contract(access, c.ID)
	if err != nil || v.Template.Version != 1 || v.TemplateVersion != 1 {
		t.Fatalf("the contract reads its template as %+v (%v)", v, err)
	}
	def, err := signflow.ParseTemplateDefinition([]byte(fixture.TemplateYAML), true)
	if err != nil {
		t.Fatal(err)
	}
	if up, err := svc.UpdateTemplate(w.Template.ID, def); err != nil || up.Version != 2 {
		t.Fatalf("update after the migration: %+v %v", up, err)
	}
}
