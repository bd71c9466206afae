package server

import (
	"errors"
	"testing"
	"time"

	"contracts/signflow"
)

func TestLimiterRefusesThenRefills(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := NewLimiter(3, time.Minute, func() time.Time { return now })
	for i := 0; i < 3; i++ {
		if err := l.Allow("ip"); err != nil {
			t.Fatalf("call %d refused: %v", i, err)
		}
	}
	err := l.Allow("ip")
	var ra *RetryAfterError
	if !errors.As(err, &ra) || signflow.ErrorCode(err) != signflow.ERATELIMIT || ra.After <= 0 || ra.After > 20*time.Second {
		t.Fatalf("4th call: %v", err)
	}
	if err := l.Allow("other"); err != nil {
		t.Fatalf("another key shares the bucket: %v", err)
	}
	now = now.Add(20 * time.Second)
	if err := l.Allow("ip"); err != nil {
		t.Fatalf("after refill: %v", err)
	}
	if err := NewLimiter(0, time.Minute, nil).Allow("x"); err != nil {
		t.Fatalf("0 means no limit: %v", err)
	}
}
