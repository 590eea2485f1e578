package lessons

import "fmt"

// A pack is a folder someone hands the tutorial, a workshop server or
// `lessons validate`: each of its files is bounded (MaxFileSize), and so
// is the pack as a whole, so that loading and checking it end soon and
// hold little, whatever is in it. The built-in course is 18 files, 0.5 MiB
// and 40 explore claims, each proved in well under a second.
const (
	// MaxPackFiles bounds the lesson files of a pack.
	MaxPackFiles = 200
	// MaxPackBytes bounds what loading a pack reads: its lesson files and
	// the scenarios they name.
	MaxPackBytes = 16 << 20
	// MaxExploreClaims bounds the explore claims of a pack: each explores
	// every interleaving of a race.
	MaxExploreClaims = 200
)

// checkBounds counts the pack's explore claims against MaxExploreClaims.
func (p *Pack) checkBounds() error {
	n := 0
	for _, l := range p.Lessons {
		for i, s := range l.Steps {
			claims := append([]Claim(nil), s.Claims...)
			for _, o := range s.Options {
				claims = append(claims, o.Claims...)
			}
			for _, c := range claims {
				if c.Explore == nil {
					continue
				}
				if n++; n > MaxExploreClaims {
					return &Error{File: l.File, Line: c.Line, Field: fmt.Sprintf("steps[%d]", i),
						Msg: fmt.Sprintf("more than %d explore claims in the pack: each explores every interleaving of a race", MaxExploreClaims)}
				}
			}
		}
	}
	return nil
}
