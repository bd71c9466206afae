package storage

import (
	"bytes"
	"encoding/json"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// bucketTemplateVersions keeps every version of every template, so that a
// contract reads the text it was made from (schema 10):
//
//	template_versions  <template id> 0x00 <version seq8> -> Template
//
// templates keeps the newest version of each, which new contracts use.
var bucketTemplateVersions = []byte("template_versions")

func versionKey(id string, version int) []byte { return join([]byte(id), seq8(uint64(version))) }

func (t *tx) TemplateVersion(id string, version int) (*signflow.Template, error) {
	v := new(signflow.Template)
	return v, t.get(bucketTemplateVersions, versionKey(id, version), v, "Template version")
}

func (t *tx) TemplateVersions(id string) ([]*signflow.Template, error) {
	var out []*signflow.Template
	prefix := append([]byte(id), 0)
	c := t.bucket(bucketTemplateVersions).Cursor()
	for k, data := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, data = c.Next() {
		v := new(signflow.Template)
		if err := json.Unmarshal(data, v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (t *tx) PutTemplate(v *signflow.Template) error {
	if err := t.put(bucketTemplates, []byte(v.ID), v); err != nil {
		return err
	}
	return t.put(bucketTemplateVersions, versionKey(v.ID, v.Version), v)
}

// createTemplateVersions makes every template stored so far version 1.
func createTemplateVersions(btx *bolt.Tx) error {
	versions, err := btx.CreateBucketIfNotExists(bucketTemplateVersions)
	if err != nil {
		return err
	}
	templates := btx.Bucket(bucketTemplates)
	type rewrite struct{ key, data []byte }
	var all []rewrite
	err = templates.ForEach(func(k, data []byte) error {
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(data, &rec); err != nil {
			return err
		}
		// The record is rewritten with version 1 and every other key as
		// it was, so that nothing a newer field reads is lost or changed.
		rec["version"] = json.RawMessage("1")
		out, err := json.Marshal(rec)
		all = append(all, rewrite{bytes.Clone(k), out})
		return err
	})
	if err != nil {
		return err
	}
	for _, r := range all {
		if err := templates.Put(r.key, r.data); err != nil {
			return err
		}
		if err := versions.Put(versionKey(string(r.key), 1), r.data); err != nil {
			return err
		}
	}
	return nil
}
