package scenario

// expectations reads a controller's `expectations: true`: it remembers
// its own last write and reads its Lister only once its informer has
// seen it (controller.Program.Expectations). It waits for its Lister, so
// it goes with read: lister.
func (p *parser) expectations(f map[string]entry, field string, c *Controller) {
	e, ok := f["expectations"]
	if !ok {
		return
	}
	v, ok := p.boolean(e.val, field+".expectations")
	if !ok {
		return
	}
	if v && c.Program.Read == "live" {
		p.errorf(e.val, field+".expectations", "expectations wait for the Lister to see the controller's own write; read: live asks the server, which has seen it already")
		return
	}
	c.Program.Expectations = v
}

// expectationsNode writes it back.
func expectationsNode(m mapping, c Controller) {
	if c.Program.Expectations {
		m.add("expectations", boolNode(true))
	}
}
