package appliance

import (
	"fmt"
	"os"
	"strings"

	"contracts/signflow"
)

// secretFromFile returns configured when set; else the secret in path,
// generated (32 random bytes, 0600) on first use.
func secretFromFile(configured, path string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	data, err := os.ReadFile(path)
	if err == nil {
		if s := strings.TrimSpace(string(data)); len(s) >= 32 {
			return s, nil
		}
		return "", fmt.Errorf("%s: too short; delete it to generate a new one", path)
	}
	if !os.IsNotExist(err) {
		return "", err
	}
	s := signflow.RandomToken(32)
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return "", err
	}
	return s, nil
}
