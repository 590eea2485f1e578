package scenario

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/conflictlab/conflictlab/sim/controller"
)

// queue reads what a controller's workqueue does besides requeueing:
// `onEvent` (which watch events of its target bring its key back) and
// `worker` (a worker it shares with other controllers' keys).
func (p *parser) queue(f map[string]entry, field string, c *Controller) {
	if e, ok := f["onEvent"]; ok {
		if s, ok := p.text(e.val, field+".onEvent"); ok {
			filter := controller.EventFilter(s)
			switch filter {
			case controller.EventsAny, controller.EventsGenerationChanged:
				c.Program.OnEvent = filter
			default:
				names := make([]string, len(controller.EventFilters))
				for i, f := range controller.EventFilters {
					names[i] = string(f)
				}
				p.errorf(e.val, field+".onEvent", "unknown event filter %q (want %s)", s, strings.Join(names, " or "))
			}
		}
	}
	if e, ok := f["worker"]; ok {
		if s, ok := p.nonEmpty(e.val, field+".worker"); ok {
			if !controller.NameRule.MatchString(s) {
				p.errorf(e.val, field+".worker", "worker %q: use letters, digits and dashes", s)
			} else {
				c.Worker = s
			}
		}
	}
}

// checkQueues checks what needs the whole scenario: an event brings a
// key back on the informer's lag, so onEvent needs a lag that is a
// duration (a manual informer hears of an event only when the schedule
// says so), and a worker is shared, so it names at least two controllers.
func (p *parser) checkQueues(s *Scenario, nodes []*yaml.Node) {
	workers := map[string]int{}
	for _, c := range s.Controllers {
		if c.Worker != "" {
			workers[c.Worker]++
		}
	}
	for i, c := range s.Controllers {
		field := indexField("controllers", i)
		if c.OnEvent != controller.EventsNone && s.LagOf(i).Manual {
			p.errorf(childNode(nodes[i], "onEvent"), field+".onEvent", "onEvent needs an informer lag that is a duration (0, 5ms…), not manual: the event brings the key back when it reaches the cache")
		}
		if c.Worker != "" && workers[c.Worker] < 2 {
			p.errorf(childNode(nodes[i], "worker"), field+".worker", "worker %q is shared with no other controller: give two or more controllers the same worker (one controller's keys), or leave it out", c.Worker)
		}
	}
}

// queueNodes writes them back.
func queueNodes(m mapping, c Controller) {
	if c.Program.OnEvent != controller.EventsNone {
		m.add("onEvent", strNode(string(c.Program.OnEvent)))
	}
	if c.Worker != "" {
		m.add("worker", strNode(c.Worker))
	}
}
