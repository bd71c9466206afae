package signflow

import "sync"

// appCache keeps apps read by token checks, so a check costs no read
// transaction. Every write of an app goes through the Service, which
// forgets the app once the write has committed. A read that raced with a
// write is not stored: the epoch says a write happened meanwhile.
type appCache struct {
	mu    sync.RWMutex
	epoch uint64
	apps  map[string]*App
}

func (c *appCache) get(id string) (*App, uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.apps[id], c.epoch
}

// put stores an app read at epoch, unless an app was written since.
func (c *appCache) put(a *App, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if c.apps == nil || len(c.apps) > 10000 {
		c.apps = map[string]*App{}
	}
	c.apps[a.ID] = a
}

func (c *appCache) forget(id string) {
	c.mu.Lock()
	c.epoch++
	delete(c.apps, id)
	c.mu.Unlock()
}

// updateApp writes an app change and then drops the app from the cache.
func (s *Service) updateApp(id string, fn func(Tx) error) error {
	// Forget before too: a reader that starts during the write sees the
	// epoch move and does not store what it read.
	s.apps.forget(id)
	err := s.store.Update(fn)
	s.apps.forget(id)
	return err
}

// cachedApp returns the app with the id, reading it once.
func (s *Service) cachedApp(id string) (*App, error) {
	if a, _ := s.apps.get(id); a != nil {
		return a, nil
	}
	_, epoch := s.apps.get(id)
	var app *App
	err := s.store.View(func(tx Tx) (err error) { app, err = tx.App(id); return err })
	if err != nil {
		return nil, err
	}
	s.apps.put(app, epoch)
	return app, nil
}
