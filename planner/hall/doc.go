// Package hall lays a cluster out in a data hall: given the facility
// (racks, aisles, tray, power budget; Facility, resolved against the
// data's defaults) and the plan's Inputs (nodes, scalable units, each
// tier's switches per plane, the height and draw of a node and of each
// tier's switch), New places compute, leaf, spine and core racks in rows
// and blocks and returns the Hall: every rack's position, contents and
// draw, the rows, the floor and their Figures. Its places (NodePlace,
// LeafPlace, SpinePlace, CorePlace) and Run measure any link's cable
// run; Elevation lists a rack's contents bottom up.
//
// It imports none of Fabric Planner's packages but textfmt and
// fielderr: the planner builds the Inputs from a Plan, walks the links
// through the places, and adds the cables it measured (AddCables).
package hall
