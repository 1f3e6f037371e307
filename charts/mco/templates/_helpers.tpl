{{/* Names, labels and the pieces the templates share. */}}

{{- define "mco.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "mco.labels" -}}
app.kubernetes.io/name: mco
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one component: (dict "ctx" $ "component" "apiserver") */}}
{{- define "mco.selector" -}}
app.kubernetes.io/name: mco
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "mco.componentLabels" -}}
{{ include "mco.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "mco.image" -}}
{{- printf "%s/%s:%s" .ctx.Values.image.registry .binary (default .ctx.Chart.AppVersion .ctx.Values.image.tag) -}}
{{- end -}}

{{/* The in-cluster address of mco-apiserver. */}}
{{- define "mco.apiserverHost" -}}
{{- printf "%s-apiserver.%s.svc" (include "mco.fullname" .) .Release.Namespace -}}
{{- end -}}

{{- define "mco.apiserverURL" -}}
{{- printf "https://%s:%v" (include "mco.apiserverHost" .) .Values.apiserver.service.port -}}
{{- end -}}

{{/* Names the serving certificate carries. */}}
{{- define "mco.apiserverDNSNames" -}}
{{- $svc := printf "%s-apiserver" (include "mco.fullname" .) -}}
{{- $names := list "localhost" $svc (printf "%s.%s" $svc .Release.Namespace) (printf "%s.%s.svc" $svc .Release.Namespace) (printf "%s.%s.svc.cluster.local" $svc .Release.Namespace) -}}
{{- range .Values.apiserver.extraSANs }}{{ if not (regexMatch "^[0-9.:]+$" .) }}{{ $names = append $names . }}{{ end }}{{ end -}}
{{- toJson $names -}}
{{- end -}}

{{- define "mco.apiserverIPs" -}}
{{- $ips := list "127.0.0.1" -}}
{{- range .Values.apiserver.extraSANs }}{{ if regexMatch "^[0-9.:]+$" . }}{{ $ips = append $ips . }}{{ end }}{{ end -}}
{{- toJson $ips -}}
{{- end -}}

{{/* Secret names of each identity's certificate (tls.crt, tls.key). */}}
{{- define "mco.certSecret" -}}
{{- $fn := include "mco.fullname" .ctx -}}
{{- if eq .ctx.Values.pki.mode "existing" -}}
{{- index .ctx.Values.pki.existing .identity -}}
{{- else -}}
{{- printf "%s-%s" $fn (get (dict "apiserver" "apiserver-tls" "scheduler" "scheduler-client" "controllerManager" "controller-manager-client") .identity) -}}
{{- end -}}
{{- end -}}

{{/* The projected volume source of the CA clients and servers are checked with. */}}
{{- define "mco.caSource" -}}
{{- if eq .Values.pki.mode "generate" -}}
- secret:
    name: {{ include "mco.fullname" . }}-ca
    items: [{key: tls.crt, path: ca.crt}]
{{- else -}}
- configMap:
    name: {{ include "mco.fullname" . }}-ca-bundle
    items: [{key: ca.crt, path: ca.crt}]
{{- end -}}
{{- end -}}

{{/* Pod security shared by every mco container. */}}
{{- define "mco.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "mco.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}

{{- define "mco.pullSecrets" -}}
{{- with .Values.image.pullSecrets -}}
imagePullSecrets:
{{- range . }}
- name: {{ . }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The etcd servers mco-apiserver stores into. */}}
{{- define "mco.etcdServers" -}}
{{- if eq .Values.etcd.mode "external" -}}
{{- join "," .Values.etcd.external.servers -}}
{{- else -}}
{{- $fn := include "mco.fullname" . -}}
{{- $urls := list -}}
{{- range $i := until (int .Values.etcd.internal.replicas) -}}
{{- $urls = append $urls (printf "http://%s-etcd-%d.%s-etcd.%s.svc:2379" $fn $i $fn $.Release.Namespace) -}}
{{- end -}}
{{- join "," $urls -}}
{{- end -}}
{{- end -}}
