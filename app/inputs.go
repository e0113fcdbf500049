package app

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/planner"
)

// GPU-count presets offered next to the GPU entry.
var gpuPresets = []int{256, 1024, 4096, 16384, 32768, 100000}

const (
	fabricIB       = "InfiniBand"
	fabricEthernet = "Ethernet (RoCEv2)"
	switchAuto     = "auto (cheapest that fits)"
	tiersAuto      = "fewest that fit"
	mediumDefault  = "default"
	workloadNone   = "default (Llama 3 70B)"
)

// field is one input with the label that shows its error.
type field struct {
	key     string // scenario key, e.g. "cluster.gpus"
	label   string
	widget  fyne.CanvasObject
	errText *widget.Label
}

// inputsPanel is the left-hand form.
type inputsPanel struct {
	u       *UI
	content fyne.CanvasObject
	fields  []*field
	general *widget.Label // errors that name no shown field

	system        *widget.Select
	gpus          *widget.Entry
	gpusPerServer *widget.Select
	nicSpeed      *widget.RadioGroup
	fabric        *widget.RadioGroup
	switchSel     *widget.Select
	oversub       *widget.Select
	planes        *widget.Select
	portsPerNIC   *widget.Select
	tiers         *widget.Select
	railOpt       *widget.Check
	nicsPerServer *widget.Entry

	loadBalancing *widget.Select
	serverPrice   *widget.Entry
	media         [3]*widget.Select
	mediaM        [3]*widget.Entry

	model, gpu              *widget.Select
	tp, pp, vpp, ep         *widget.Entry
	batch, tokens, microBat *widget.Entry
	zero, recompute         *widget.Check
	prices                  *priceEditor
}

func newInputsPanel(u *UI) *inputsPanel {
	in := &inputsPanel{u: u, general: widget.NewLabel("")}
	in.general.Wrapping = fyne.TextWrapWord
	in.general.Importance = widget.DangerImportance
	in.general.Hide()
	s := func() *planner.Scenario { return &u.scenario }

	in.gpus = widget.NewEntry()
	in.gpus.SetPlaceHolder("e.g. 1024")
	in.gpus.OnChanged = func(text string) {
		if u.loading {
			return
		}
		n, err := parseCount(text, planner.MaxGPUs)
		if err != nil {
			in.setError("cluster.gpus", err.Error())
			return
		}
		s().Cluster.GPUs = n
		u.changed()
	}
	in.system = widget.NewSelect(u.cat.SystemKeys(), func(v string) {
		if u.loading || v == "" {
			return
		}
		s().Cluster.System = v
		if sys := u.cat.Systems[v]; sys != nil {
			*s() = s().WithSystem(u.cat)
			// The system fixes the NIC speed: a switch without ports at it
			// goes back to auto, and the server price is the system's.
			speed := u.cat.NICs[sys.NIC].Gbps
			if sw := u.cat.Switches[s().Network.Switch]; sw != nil && sw.Radix(speed) == 0 {
				s().Network.Switch = planner.Auto
			}
			s().Network.PortsPerNIC, s().Network.Planes = 0, 1
			s().Cluster.ServerPriceUSD = 0
		}
		in.syncSystem(*s())
		u.changed()
	})
	presets := make([]fyne.CanvasObject, 0, len(gpuPresets))
	for _, g := range gpuPresets {
		g := g
		presets = append(presets, widget.NewButton(compact(g), func() { in.gpus.SetText(strconv.Itoa(g)) }))
	}
	in.gpusPerServer = widget.NewSelect([]string{"4", "8", "16", "32", "72"}, func(v string) {
		if u.loading {
			return
		}
		s().Cluster.GPUsPerServer, _ = strconv.Atoi(v)
		u.changed()
	})
	in.nicsPerServer = widget.NewEntry()
	in.nicsPerServer.SetPlaceHolder("one per GPU")
	in.nicsPerServer.OnChanged = func(text string) {
		if u.loading {
			return
		}
		if strings.TrimSpace(text) == "" {
			s().Network.NICsPerServer = 0
			u.changed()
			return
		}
		n, err := parseCount(text, 1024)
		if err != nil {
			in.setError("network.nics_per_server", err.Error())
			return
		}
		s().Network.NICsPerServer = n
		u.changed()
	}
	in.nicSpeed = widget.NewRadioGroup([]string{"400G", "800G", "200G", "1.6T"}, func(v string) {
		if u.loading {
			return
		}
		if v == "" {
			return
		}
		s().Network.NICGbps = speedGbps(v)
		s().Network.PortsPerNIC = 0 // the new NIC's default split
		s().Network.Planes = 1
		s().Network.NIC = planner.Auto
		// A switch chosen for the old speed may have no ports at the new one.
		if sw := u.cat.Switches[s().Network.Switch]; sw != nil && sw.Radix(s().Network.NICGbps) == 0 {
			s().Network.Switch = planner.Auto
		}
		u.changed()
	})
	in.nicSpeed.Horizontal = true
	in.fabric = widget.NewRadioGroup([]string{fabricIB, fabricEthernet}, func(v string) {
		if u.loading {
			return
		}
		if v == "" {
			return
		}
		f := planner.InfiniBand
		if v == fabricEthernet {
			f = planner.Ethernet
		}
		if s().Network.Fabric != f {
			*s() = planner.AutoHardware(*s()) // the other fabric's switches and NICs differ
			s().Network.Fabric = f
		}
		u.changed()
	})
	in.fabric.Horizontal = true
	in.switchSel = widget.NewSelect([]string{switchAuto}, func(v string) {
		if u.loading {
			return
		}
		if v == "" {
			return
		}
		key := planner.Auto
		if v != switchAuto {
			key = strings.Fields(v)[0]
		}
		s().Network.Switch = key
		u.changed()
	})
	in.oversub = widget.NewSelect([]string{"1:1", "2:1", "3:1", "4:1"}, func(v string) {
		if u.loading {
			return
		}
		s().Network.Oversubscription = v
		u.changed()
	})
	in.planes = widget.NewSelect([]string{"1"}, func(v string) {
		if u.loading {
			return
		}
		if n, err := strconv.Atoi(v); err == nil {
			s().Network.Planes = n
			u.changed()
		}
	})
	in.portsPerNIC = widget.NewSelect([]string{"1"}, func(v string) {
		if u.loading {
			return
		}
		if n, err := strconv.Atoi(v); err == nil {
			s().Network.PortsPerNIC = n
			s().Network.Planes = 1
			u.changed()
		}
	})
	in.tiers = widget.NewSelect([]string{tiersAuto, "1", "2", "3"}, func(v string) {
		if u.loading {
			return
		}
		n, _ := strconv.Atoi(v)
		s().Network.Tiers = n
		u.changed()
	})
	in.railOpt = widget.NewCheck("Rail-optimized (one leaf per rail)", func(b bool) {
		if u.loading {
			return
		}
		s().Network.RailOptimized = b
		u.changed()
	})

	in.loadBalancing = widget.NewSelect([]string{planner.LBAdaptive, planner.LBECMP}, func(v string) {
		if u.loading {
			return
		}
		s().Network.LoadBalancing = v
		u.changed()
	})
	in.serverPrice = widget.NewEntry()
	in.serverPrice.SetPlaceHolder("US$ per server (optional)")
	in.serverPrice.OnChanged = func(text string) {
		if u.loading {
			return
		}
		v, err := parseMoney(text)
		if err != nil {
			in.setError("cluster.server_price_usd", err.Error())
			return
		}
		s().Cluster.ServerPriceUSD = v
		u.changed()
	}
	tierNames := [3]string{"server_leaf", "leaf_spine", "spine_core"}
	for i := range in.media {
		i := i
		in.media[i] = widget.NewSelect([]string{mediumDefault, string(planner.Optics), string(planner.AOC), string(planner.ACC), string(planner.DAC)}, func(v string) {
			if u.loading {
				return
			}
			m := planner.Medium(v)
			if v == mediumDefault {
				m = ""
			}
			*mediumOf(&s().Network.Media, i) = m
			u.changed()
		})
		in.mediaM[i] = widget.NewEntry()
		in.mediaM[i].SetPlaceHolder("default length")
		in.mediaM[i].OnChanged = func(text string) {
			if u.loading {
				return
			}
			v, err := parseMetres(text)
			if err != nil {
				in.setError("network.media."+tierNames[i]+"_m", err.Error())
				return
			}
			*metresOf(&s().Network.Media, i) = v
			u.changed()
		}
	}
	in.buildWorkload()

	in.add("cluster.system", "System", in.system)
	in.add("cluster.gpus", "GPUs", container.NewVBox(in.gpus, container.NewGridWithColumns(3, presets...)))
	in.add("cluster.gpus_per_server", "GPUs per server", in.gpusPerServer)
	in.add("network.nic_gbps", "NIC speed", in.nicSpeed)
	in.add("network.fabric", "Fabric", in.fabric)
	in.add("network.switch", "Switch", in.switchSel)
	in.add("network.oversubscription", "Leaf oversubscription", in.oversub)
	in.add("network.planes", "Planes", in.planes)
	in.add("network.ports_per_nic", "Ports per NIC", in.portsPerNIC)
	in.add("network.tiers", "Tiers", in.tiers)
	in.add("network.rail_optimized", "", in.railOpt)
	main := in.form(in.fields)

	var adv []*field
	adv = append(adv, in.add("network.nics_per_server", "NICs per server", in.nicsPerServer))
	adv = append(adv, in.add("network.load_balancing", "RoCE load balancing", in.loadBalancing))
	adv = append(adv, in.add("cluster.server_price_usd", "Server price", in.serverPrice))
	for i, name := range []string{"Server-leaf", "Leaf-spine", "Spine-core"} {
		adv = append(adv, in.add("network.media."+tierNames[i], name+" medium", in.media[i]))
		adv = append(adv, in.add("network.media."+tierNames[i]+"_m", name+" length (m)", in.mediaM[i]))
	}
	advanced := in.form(adv)
	wl := in.form(in.workloadFields())
	in.prices = newPriceEditor(in)
	pricesField := in.add("prices", "", in.prices.content)
	acc := widget.NewAccordion(
		widget.NewAccordionItem("Media and more", advanced),
		widget.NewAccordionItem("Prices", in.form([]*field{pricesField})),
		widget.NewAccordionItem("Workload (JCT model)", wl),
	)
	title := widget.NewLabelWithStyle("Cluster and fabric", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	in.content = container.NewVScroll(container.NewVBox(title, main, in.general, acc))
	return in
}

// add registers a field; it returns it for grouping.
func (in *inputsPanel) add(key, label string, w fyne.CanvasObject) *field {
	errText := widget.NewLabel("")
	errText.Importance = widget.DangerImportance
	errText.Wrapping = fyne.TextWrapWord
	errText.Hide()
	f := &field{key: key, label: label, widget: w, errText: errText}
	in.fields = append(in.fields, f)
	return f
}

// form lays fields out as label above widget above error.
func (in *inputsPanel) form(fields []*field) fyne.CanvasObject {
	box := container.NewVBox()
	for _, f := range fields {
		if f.label != "" {
			l := widget.NewLabel(f.label)
			l.TextStyle.Bold = true
			box.Add(l)
		}
		box.Add(f.widget)
		box.Add(f.errText)
	}
	return box
}

func (in *inputsPanel) field(key string) *field {
	for _, f := range in.fields {
		if f.key == key {
			return f
		}
	}
	return nil
}

// setError shows a typing error next to its field; the last plan stays.
func (in *inputsPanel) setError(key, msg string) {
	if f := in.field(key); f != nil {
		f.errText.SetText(msg)
		f.errText.Show()
	}
	in.u.status.SetText("Not planned: " + msg + " — showing the last valid plan.")
}

// showErrors puts each field error next to its field and the rest in the
// general label; nil clears them all.
func (in *inputsPanel) showErrors(err error) {
	for _, f := range in.fields {
		f.errText.SetText("")
		f.errText.Hide()
	}
	in.general.Hide()
	if err == nil {
		return
	}
	var general []string
	fes := planner.FieldErrors(err)
	for _, fe := range fes {
		key := fe.Field
		if strings.HasPrefix(key, "prices.") {
			key = "prices"
		}
		if f := in.field(key); f != nil {
			msg := fe.Problem
			if fe.Fix != "" {
				msg += "; " + fe.Fix
			}
			f.errText.SetText(msg)
			f.errText.Show()
			continue
		}
		general = append(general, fe.Error())
	}
	if len(fes) == 0 {
		general = append(general, err.Error())
	}
	if len(general) > 0 {
		in.general.SetText(strings.Join(general, "\n"))
		in.general.Show()
	}
}

// syncSystem shows what the scenario's system fixes (GPUs and NICs per
// node, NIC speed) in those widgets and locks them; custom unlocks them.
func (in *inputsPanel) syncSystem(s planner.Scenario) {
	was := in.u.loading
	in.u.loading = true
	defer func() { in.u.loading = was }()
	key := s.Cluster.System
	if key == "" {
		key = planner.CustomSystem
	}
	in.system.SetSelected(key)
	ws := s.WithSystem(in.u.cat)
	fixed := in.u.cat.Systems[key] != nil
	if fixed {
		in.gpusPerServer.SetSelected(strconv.Itoa(ws.Cluster.GPUsPerServer))
		in.nicSpeed.SetSelected(speedLabel(ws.Network.NICGbps))
		in.nicsPerServer.SetText(strconv.Itoa(ws.Network.NICsPerServer))
		in.serverPrice.SetPlaceHolder("US$ per system (default: catalog)")
	} else {
		in.serverPrice.SetPlaceHolder("US$ per server (optional)")
	}
	for _, w := range []interface {
		Enable()
		Disable()
	}{in.gpusPerServer, in.nicSpeed, in.nicsPerServer} {
		if fixed {
			w.Disable()
		} else {
			w.Enable()
		}
	}
}

// fill shows s in the widgets.
func (in *inputsPanel) fill(s planner.Scenario) {
	in.gpus.SetText(strconv.Itoa(s.Cluster.GPUs))
	in.gpusPerServer.SetSelected(strconv.Itoa(s.Cluster.GPUsPerServer))
	in.nicSpeed.SetSelected(speedLabel(s.Network.NICGbps))
	if s.Network.Fabric == planner.Ethernet {
		in.fabric.SetSelected(fabricEthernet)
	} else {
		in.fabric.SetSelected(fabricIB)
	}
	in.oversub.SetSelected(s.Network.Oversubscription)
	in.tiers.SetSelected(tiersLabel(s.Network.Tiers))
	in.railOpt.SetChecked(s.Network.RailOptimized)
	in.nicsPerServer.SetText(optionalInt(s.Network.NICsPerServer))
	in.loadBalancing.SetSelected(s.Network.LoadBalancing)
	in.serverPrice.SetText(optionalFloat(s.Cluster.ServerPriceUSD))
	for i := range in.media {
		m := *mediumOf(&s.Network.Media, i)
		if m == "" {
			in.media[i].SetSelected(mediumDefault)
		} else {
			in.media[i].SetSelected(string(m))
		}
		in.mediaM[i].SetText(optionalFloat(*metresOf(&s.Network.Media, i)))
	}
	in.fillWorkload(s.Workload)
	in.prices.fill(s)
	// Choices that depend on the plan (switches that fit, planes that
	// divide the ports) are set from the scenario now and refined by
	// refreshChoices once it plans.
	in.switchSel.Options = []string{switchAuto}
	if s.Network.Switch != planner.Auto {
		in.switchSel.Options = append(in.switchSel.Options, s.Network.Switch)
		in.switchSel.SetSelected(s.Network.Switch)
	} else {
		in.switchSel.SetSelected(switchAuto)
	}
	in.planes.Options = []string{strconv.Itoa(s.Network.Planes)}
	in.planes.SetSelected(strconv.Itoa(s.Network.Planes))
	ppn := s.Network.PortsPerNIC
	if ppn == 0 {
		ppn = 1
	}
	in.portsPerNIC.Options = []string{strconv.Itoa(ppn)}
	in.portsPerNIC.SetSelected(strconv.Itoa(ppn))
	in.syncSystem(s)
}

// refreshChoices offers only the switches that fit the plan's fabric and
// port speed, the planes that divide a server's ports and the port splits
// the NIC supports.
func (in *inputsPanel) refreshChoices(p *planner.Plan) {
	u := in.u
	was := u.loading
	u.loading = true
	defer func() { u.loading = was }()
	s := p.Scenario
	opts := []string{switchAuto}
	for _, sw := range u.cat.SwitchesFor(s.Network.Fabric, p.PortGbps) {
		try := s
		try.Network.Switch = sw.Key
		if _, err := planner.Build(try, u.cat); err == nil {
			opts = append(opts, fmt.Sprintf("%s (%d x %dG)", sw.Key, sw.Radix(p.PortGbps), p.PortGbps))
		}
	}
	in.switchSel.Options = opts
	sel := switchAuto
	if u.scenario.Network.Switch != planner.Auto {
		for _, o := range opts {
			if strings.Fields(o)[0] == u.scenario.Network.Switch {
				sel = o
			}
		}
	}
	in.switchSel.SetSelected(sel)
	in.switchSel.Refresh()

	var planes []string
	for d := 1; d <= p.ServerPorts && d <= 16; d++ {
		if p.ServerPorts%d == 0 {
			planes = append(planes, strconv.Itoa(d))
		}
	}
	in.planes.Options = planes
	in.planes.SetSelected(strconv.Itoa(p.Planes))
	in.planes.Refresh()

	var splits []string
	for _, n := range p.NIC.PortSplits(s.Network.Fabric) {
		splits = append(splits, strconv.Itoa(n))
	}
	in.portsPerNIC.Options = splits
	in.portsPerNIC.SetSelected(strconv.Itoa(s.Network.PortsPerNIC))
	in.portsPerNIC.Refresh()
}

func mediumOf(m *planner.Media, i int) *planner.Medium {
	return [3]*planner.Medium{&m.ServerLeaf, &m.LeafSpine, &m.SpineCore}[i]
}

func metresOf(m *planner.Media, i int) *float64 {
	return [3]*float64{&m.ServerLeafM, &m.LeafSpineM, &m.SpineCoreM}[i]
}

// parseCount reads a whole number from 1 to limit; "1,024", "1_024" and
// "16k" are accepted.
func parseCount(text string, limit int) (int, error) {
	t := strings.NewReplacer(",", "", "_", "", " ", "").Replace(strings.TrimSpace(text))
	mult := 1
	if strings.HasSuffix(t, "k") || strings.HasSuffix(t, "K") {
		mult, t = 1000, t[:len(t)-1]
	}
	n, err := strconv.Atoi(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", text)
	}
	n *= mult
	if n < 1 || n > limit {
		return 0, fmt.Errorf("give a number from 1 to %s", planner.FormatInt(limit))
	}
	return n, nil
}

func parseMoney(text string) (float64, error) {
	t := strings.NewReplacer(",", "", "$", "", "_", "", " ", "").Replace(text)
	if t == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a price: write dollars, e.g. 300000", text)
	}
	return v, nil
}

func parseMetres(text string) (float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "m"))
	if t == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("%q is not a length: write metres, e.g. 30", text)
	}
	return v, nil
}

func speedGbps(label string) int {
	if label == "1.6T" {
		return 1600
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(label, "G"))
	return n
}

func speedLabel(gbps int) string {
	if gbps == 1600 {
		return "1.6T"
	}
	return strconv.Itoa(gbps) + "G"
}

func tiersLabel(t int) string {
	if t == 0 {
		return tiersAuto
	}
	return strconv.Itoa(t)
}

func optionalInt(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func optionalFloat(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// compact labels a preset: 1,024 or 100k.
func compact(n int) string {
	if n >= 100000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return planner.FormatInt(n)
}

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
