// Package dashboard is the web view of kubectl mco dashboard: pages of
// clusters and workloads rendered on the server from html/template,
// following mco's watches with the user's own credentials, and served
// on 127.0.0.1 behind a per-start session token and Host and Origin
// checks, so no other web page can drive it.
package dashboard
