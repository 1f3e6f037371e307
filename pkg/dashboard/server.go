package dashboard

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
)

//go:embed web/templates/*.html web/static/*
var webFS embed.FS

// page is one entry of the navigation.
type page struct {
	Name, Path string
	Current    bool
}

var pages = []page{{Name: "Clusters", Path: "/clusters"}, {Name: "Workloads", Path: "/workloads"}, {Name: "Policies", Path: "/policies"}, {Name: "Rollouts", Path: "/rollouts"}}

// view is what every template gets: the layout's facts and the page's
// own model.
type view struct {
	Title, LivePath string
	Nav             []page
	User, Server    string
	Namespace       string
	Generated       string
	Snapshot        *Snapshot
	Page            any
}

// Options are what the server shows about the user's connection.
type Options struct {
	// User and Server name the identity and the mco it talks to, for the
	// footer.
	User, Server string
}

// handler serves the pages from a Source.
type handler struct {
	src       Source
	opts      Options
	templates map[string]*template.Template
	static    http.Handler
	now       func() time.Time
}

// NewHandler returns the dashboard's pages and live events, unguarded
// (Serve adds the session, Host and Origin checks).
func NewHandler(src Source, opts Options) (http.Handler, error) {
	h := &handler{src: src, opts: opts, templates: map[string]*template.Template{}, now: time.Now}
	funcs := template.FuncMap{
		"join": strings.Join,
		"add":  func(a, b int) int { return a + b },
		"sub":  func(a, b int) int { return a - b },
	}
	for _, name := range []string{"clusters", "workloads", "workload", "policies", "rollouts"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(webFS, "web/templates/layout.html", "web/templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("dashboard template %s: %w", name, err)
		}
		h.templates[name] = t
	}
	static, err := fs.Sub(webFS, "web/static")
	if err != nil {
		return nil, err
	}
	h.static = http.StripPrefix("/static/", http.FileServer(http.FS(static)))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/clusters", http.StatusSeeOther) })
	mux.HandleFunc("GET /clusters", h.clusters)
	mux.HandleFunc("GET /workloads", h.workloads)
	mux.HandleFunc("GET /workloads/{namespace}/{binding}", h.workload)
	mux.HandleFunc("GET /policies", h.policies)
	mux.HandleFunc("GET /rollouts", h.rollouts)
	mux.HandleFunc("POST /rollouts/{namespace}/{name}/{action}", h.control)
	mux.HandleFunc("GET /events", h.events)
	mux.Handle("GET /static/", h.static)
	return mux, nil
}

func (h *handler) clusters(w http.ResponseWriter, r *http.Request) {
	s := h.src.Snapshot()
	h.render(w, r, "clusters", "Clusters", s, clustersPage(s))
}

func (h *handler) workloads(w http.ResponseWriter, r *http.Request) {
	s := h.src.Snapshot()
	f := filterOf(r.URL.Query())
	if f.Labels != "" {
		h.labelFilter(r.Context(), s, &f)
	}
	h.render(w, r, "workloads", "Workloads", s, workloadsPage(s, f))
}

// labelFilter turns the filter's label selector into a verdict per
// binding, from the templates the source finds; an error leaves every
// workload out and says why.
func (h *handler) labelFilter(ctx context.Context, s *Snapshot, f *Filter) {
	none := func(*Binding) bool { return false }
	sel, err := labels.Parse(f.Labels)
	if err != nil {
		f.Error, f.keep = "label selector: "+err.Error(), none
		return
	}
	m, ok := h.src.(TemplateMatcher)
	if !ok {
		f.Error, f.keep = "filtering by labels is not available here", none
		return
	}
	kinds := map[schema.GroupVersionKind]bool{}
	for _, b := range s.Bindings {
		if f.Kind == "" || b.Spec.Resource.Kind == f.Kind {
			kinds[schema.FromAPIVersionAndKind(b.Spec.Resource.APIVersion, b.Spec.Resource.Kind)] = true
		}
	}
	list := make([]schema.GroupVersionKind, 0, len(kinds))
	for k := range kinds {
		list = append(list, k)
	}
	matched, err := m.MatchTemplates(ctx, sel, f.Namespace, list)
	if err != nil {
		f.Error = "filtering by labels: " + err.Error()
	}
	f.keep = func(b *Binding) bool {
		r := b.Spec.Resource
		return matched[TemplateKey(r.APIVersion, r.Kind, r.Namespace, r.Name)]
	}
}

func (h *handler) policies(w http.ResponseWriter, r *http.Request) {
	s := h.src.Snapshot()
	h.render(w, r, "policies", "Policies", s, policiesPage(s))
}

func (h *handler) rollouts(w http.ResponseWriter, r *http.Request) {
	s := h.src.Snapshot()
	var may func(string) bool
	if c, ok := h.src.(Controller); ok {
		may = func(ns string) bool { return c.MayControl(r.Context(), ns) }
	}
	p := rolloutsPage(s, may)
	p.Done, p.Failed = r.URL.Query().Get("done"), r.URL.Query().Get("failed")
	h.render(w, r, "rollouts", "Rollouts", s, p)
}

// control pauses or resumes a rollout as the user, then shows the
// Rollouts page again with what it did.
func (h *handler) control(w http.ResponseWriter, r *http.Request) {
	c, ok := h.src.(Controller)
	action := r.PathValue("action")
	if !ok || (action != "pause" && action != "resume") {
		http.NotFound(w, r)
		return
	}
	ns, name := r.PathValue("namespace"), r.PathValue("name")
	q := url.Values{}
	if did, err := c.Control(r.Context(), ns, name, action); err != nil {
		q.Set("failed", fmt.Sprintf("%s of %s/%s failed: %v", action, ns, name, err))
	} else {
		q.Set("done", fmt.Sprintf("%s/%s %s", ns, name, did))
	}
	http.Redirect(w, r, "/rollouts?"+q.Encode(), http.StatusSeeOther)
}

func (h *handler) workload(w http.ResponseWriter, r *http.Request) {
	ns, name := r.PathValue("namespace"), r.PathValue("binding")
	if ns == "-" {
		ns = ""
	}
	s := h.src.Snapshot()
	var b *Binding
	for _, x := range s.Bindings {
		if x.Namespace == ns && x.Name == name {
			b = x
			break
		}
	}
	if b == nil {
		http.Error(w, "no such workload, or you may not read it", http.StatusNotFound)
		return
	}
	var events []corev1.Event
	var err error
	if es, ok := h.src.(EventSource); ok {
		res := b.Spec.Resource
		events, err = es.Events(r.Context(), res.Namespace, res.Kind, res.Name)
	}
	h.render(w, r, "workload", b.Spec.Resource.Kind+" "+b.Spec.Resource.Name, s, workloadPage(r.Context(), s, b, events, err))
}

// render writes the page, or only its main section when the live script
// asks for it (header X-MCO-Partial).
func (h *handler) render(w http.ResponseWriter, r *http.Request, name, title string, s *Snapshot, model any) {
	start := h.now()
	v := view{Title: title, LivePath: r.URL.Path, User: h.opts.User, Server: h.opts.Server, Namespace: s.Namespace,
		Generated: start.Format("15:04:05"), Snapshot: s, Page: model}
	for _, p := range pages {
		p.Current = strings.HasPrefix(r.URL.Path, p.Path)
		v.Nav = append(v.Nav, p)
	}
	tmpl := "layout"
	if r.Header.Get("X-MCO-Partial") != "" {
		tmpl = "content"
	}
	var buf bytes.Buffer
	if err := h.templates[name].ExecuteTemplate(&buf, tmpl, v); err != nil {
		klog.ErrorS(err, "Render a dashboard page", "page", name)
		http.Error(w, "the page could not be rendered: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
	klog.V(4).InfoS("Rendered", "page", name, "duration", h.now().Sub(start))
}

// events streams server-sent events: "changed" whenever the source
// changes, at most once a second, and a comment every 15 s to keep the
// connection open.
func (h *handler) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, "retry: 2000\n\n")
	flusher.Flush()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	changed := h.src.Changed()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case <-changed:
			// Changes from now on close the next channel, so none is lost
			// while a burst is coalesced into one refresh a second.
			changed = h.src.Changed()
			fmt.Fprint(w, "event: changed\ndata: {}\n\n")
			flusher.Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
		}
		flusher.Flush()
	}
}
