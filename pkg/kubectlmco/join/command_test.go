package join

import (
	"testing"
)

func TestFlagsComplete(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		args       []string
		kubeconfig string
		labels     map[string]string
		wantErr    string
	}{{
		name: "A name and a kubeconfig are enough", args: []string{"member3"}, kubeconfig: "m3.kubeconfig",
	}, {
		name: "No name is refused", kubeconfig: "m3.kubeconfig",
		wantErr: "join takes exactly one NAME, the Cluster's name on mco",
	}, {
		name: "Two names are refused", args: []string{"a", "b"}, kubeconfig: "m3.kubeconfig",
		wantErr: "join takes exactly one NAME, the Cluster's name on mco",
	}, {
		name: "A name the API would refuse is refused first", args: []string{"Member_3"}, kubeconfig: "m3.kubeconfig",
		wantErr: `invalid cluster name "Member_3": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
	}, {
		name: "The member kubeconfig is required", args: []string{"member3"},
		wantErr: "--cluster-kubeconfig is required: the kubeconfig file of the member cluster",
	}, {
		name: "An invalid label is refused", args: []string{"member3"}, kubeconfig: "m3.kubeconfig", labels: map[string]string{"env": "a b"},
		wantErr: `--labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fl := flags{kubeconfig: tc.kubeconfig, opts: Options{Labels: tc.labels}}
			err := fl.complete(tc.args)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
				t.Fatalf("error:\n%v\nwant:\n%s", err, tc.wantErr)
			}
		})
	}
}
