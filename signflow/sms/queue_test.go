package sms_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/signflow/sms"

	"github.com/rs/zerolog"
)

// stuck holds every send until its context ends or it is released.
type stuck struct {
	started chan string
	release chan struct{}
	mu      sync.Mutex
	ended   []error
}

func (s *stuck) Send(ctx context.Context, phone, _ string) error {
	s.started <- phone
	var err error
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case <-s.release:
	}
	s.mu.Lock()
	s.ended = append(s.ended, err)
	s.mu.Unlock()
	return err
}

type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) { l.mu.Lock(); defer l.mu.Unlock(); return l.b.Write(p) }
func (l *logBuf) String() string              { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// Enqueue never blocks: with the sender stuck and the queue full, a text
// is dropped and logged, phone masked and text left out. Shutdown waits
// for the sends under way until its context ends, then cancels them and
// still waits for them; a text queued after Shutdown is dropped, not a panic.
func TestQueueNeverBlocksAndShutsDown(t *testing.T) {
	sender := &stuck{started: make(chan string, 8), release: make(chan struct{})}
	log := &logBuf{}
	q := sms.NewQueue(sender, zerolog.New(log), sms.QueueOptions{Size: 1, Workers: 1, Timeout: 30 * time.Second})
	q.Start()
	q.Enqueue("998901234567", "code 12345")
	if got := <-sender.started; got != "998901234567" {
		t.Fatalf("sending to %s", got)
	}
	q.Enqueue("998901234568", "code 22222") // waits in the queue
	q.Enqueue("998901234569", "code 33333") // the queue is full
	if l := log.String(); !strings.Contains(l, "the queue is full") || !strings.Contains(l, "+99890*****69") || strings.Contains(l, "33333") {
		t.Fatalf("log %s", l)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no patience: cancel what is under way at once
	if err := q.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("shutdown: %v", err)
	}
	sender.mu.Lock()
	ended := len(sender.ended)
	sender.mu.Unlock()
	if ended != 2 {
		t.Fatalf("%d sends ended by the shutdown, want both: the one under way and the queued one", ended)
	}
	q.Enqueue("998901234567", "late")
	if l := log.String(); !strings.Contains(l, "SMS not sent") || !strings.Contains(l, "shut down") {
		t.Fatalf("log %s", l)
	}
	if err := q.Shutdown(context.Background()); err != nil {
		t.Fatalf("a second shutdown: %v", err)
	}
}
