package signflow

import "sync"

// appCache keeps apps read by token checks, so a check costs no read of
// the app. Every write of an app through this Service forgets the app
// once the write has committed; a read that raced with such a write is
// not stored: the epoch says a write happened meanwhile. On a store that
// other processes write too (Shared), each entry also holds the
// credentials version it was read at, and answers only while the store's
// version is the same: a change made through any process is seen at once.
type appCache struct {
	mu    sync.RWMutex
	epoch uint64
	apps  map[string]cachedApp
}

type cachedApp struct {
	app     *App
	version uint64 // the store's credentials version before the read
}

func (c *appCache) get(id string) (cachedApp, uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.apps[id], c.epoch
}

// put stores an app read at epoch, unless an app was written since.
func (c *appCache) put(e cachedApp, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if c.apps == nil || len(c.apps) > 10000 {
		c.apps = map[string]cachedApp{}
	}
	c.apps[e.app.ID] = e
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

// cachedApp returns the app with the id, reading it once per change.
func (s *Service) cachedApp(id string) (*App, error) {
	var version uint64
	if shared, ok := s.store.(Shared); ok {
		v, err := shared.CredentialsVersion()
		if err != nil {
			return nil, err
		}
		version = v
	}
	e, epoch := s.apps.get(id)
	if e.app != nil && e.version == version {
		return e.app, nil
	}
	var app *App
	err := s.store.View(func(tx Tx) (err error) { app, err = tx.App(id); return err })
	if err != nil {
		return nil, err
	}
	s.apps.put(cachedApp{app, version}, epoch)
	return app, nil
}
