package queries

import "testing"

// TestUpdateDuplicateTaskIDEqualsBuild: a BPMN file naming two tasks "T"
// mints one activity node with two positions (and titles, lines). Build
// decoded the first value in the store's order, Update the first in the
// change's, so the workflow's order differed (found in review); one value
// is now chosen whatever the order.
func TestUpdateDuplicateTaskIDEqualsBuild(t *testing.T) {
	bpmn := `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="https://x.example/ns#"><process id="P">` + "\n" +
		`<serviceTask id="T" name="first"><extensionElements><x:skill ref="s"/></extensionElements></serviceTask>` + "\n" +
		`<serviceTask id="X" name="middle"><extensionElements><x:skill ref="u"/></extensionElements></serviceTask>` + "\n" +
		`<serviceTask id="T" name="second"><extensionElements><x:skill ref="s"/></extensionElements></serviceTask>` + "\n" +
		`</process></definitions>`
	runReview(t, reviewCase{
		files: map[string]string{
			"harness.json":     reviewLib,
			"skills/s.md":      reviewSkill("s"),
			"skills/u.md":      reviewSkill("u"),
			"processes/p.bpmn": bpmn,
		},
		steps: []reviewStep{
			{name: "task retitled", ops: []reviewOp{{file: "processes/p.bpmn", old: `name="middle"`, new: `name="Middle"`}}},
		},
	})
}
