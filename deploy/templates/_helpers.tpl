{{- define "vfps.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "vfps.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "vfps.headlessName" -}}
{{- printf "%s-headless" (include "vfps.fullname" . | trunc 54 | trimSuffix "-") }}
{{- end }}

{{- define "vfps.membersName" -}}
{{- printf "%s-members" (include "vfps.fullname" . | trunc 55 | trimSuffix "-") }}
{{- end }}

{{- define "vfps.selectorLabels" -}}
app.kubernetes.io/name: {{ include "vfps.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "vfps.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "vfps.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "vfps.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The Secret with the connection string: the user's, or the one this chart makes. */}}
{{- define "vfps.databaseSecretName" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecret }}
{{- else if .Values.database.connectionString }}
{{- printf "%s-database" (include "vfps.fullname" .) }}
{{- else }}
{{- fail "vfps needs a database: set database.existingSecret (a Secret holding the connection string) or database.connectionString" }}
{{- end }}
{{- end }}

{{- define "vfps.databaseSecretKey" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecretKey }}
{{- else }}
{{- print "connection-string" }}
{{- end }}
{{- end }}

{{/* The environment shared by the pods and the migrations Job: the database and the JVM. */}}
{{- define "vfps.commonEnv" -}}
- name: ConnectionStrings__PostgreSQL
  valueFrom:
    secretKeyRef:
      name: {{ include "vfps.databaseSecretName" . }}
      key: {{ include "vfps.databaseSecretKey" . }}
{{- with .Values.database.passwordSecret }}
{{- if .name }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .name }}
      key: {{ .key }}
{{- end }}
{{- end }}
- name: JAVA_OPTS
  value: {{ .Values.javaOpts | quote }}
- name: MALLOC_ARENA_MAX
  value: "2"
{{- end }}

{{/*
The `config` tree as environment variables: nested keys joined with "__", list entries by index,
null values left out. Numbers are written without an exponent (YAML numbers reach templates as
floats).
*/}}
{{- define "vfps.configEnv" -}}
{{- $name := .name }}
{{- $value := .value }}
{{- if kindIs "map" $value }}
{{- range $key := keys $value | sortAlpha }}
{{- include "vfps.configEnv" (dict "name" (ternary $key (printf "%s__%s" $name $key) (eq $name "")) "value" (get $value $key)) }}
{{- end }}
{{- else if kindIs "slice" $value }}
{{- range $index, $item := $value }}
{{- include "vfps.configEnv" (dict "name" (printf "%s__%d" $name $index) "value" $item) }}
{{- end }}
{{- else if not (kindIs "invalid" $value) }}
- name: {{ $name }}
  value: {{ include "vfps.scalar" $value | quote }}
{{- end }}
{{- end }}

{{- define "vfps.scalar" -}}
{{- if and (kindIs "float64" .) (eq (floor .) .) }}
{{- printf "%.0f" . }}
{{- else }}
{{- toString . }}
{{- end }}
{{- end }}

{{/* Settings the chart owns elsewhere in values must not come in through `config` too. */}}
{{- define "vfps.checkConfig" -}}
{{- $config := .Values.config | default dict }}
{{- range $key := keys $config }}
{{- $lower := lower $key }}
{{- if has $lower (list "connectionstrings" "cluster" "metricsport") }}
{{- fail (printf "config.%s: set it through database, cluster or ports instead" $key) }}
{{- end }}
{{- if eq $lower "kestrel" }}
{{- fail (printf "config.%s: set TLS through tls instead" $key) }}
{{- end }}
{{- if and (has $lower (list "http" "grpc")) (kindIs "map" (get $config $key)) }}
{{- range $inner := keys (get $config $key) }}
{{- if eq (lower $inner) "port" }}
{{- fail (printf "config.%s.%s: set it through ports instead" $key $inner) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- range $key := keys $config }}
{{- if and (eq (lower $key) "authorization") (kindIs "map" (get $config $key)) }}
{{- range $inner := keys (get $config $key) }}
{{- if eq (lower $inner) "clientsecret" }}
{{- fail (printf "config.%s.%s: set it through authorization.clientSecret (a Secret) instead" $key $inner) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- $caching := dig "Pseudonymization" "Caching" dict $config }}
{{- $cached := or (eq (dig "Namespaces" "IsEnabled" false $caching | toString | lower) "true") (eq (dig "Pseudonyms" "IsEnabled" false $caching | toString | lower) "true") }}
{{- $replicated := or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled }}
{{- if and $cached $replicated (not .Values.cluster.enabled) }}
{{- fail "caches on several replicas need cluster.enabled=true (else a namespace deleted through one replica stays in the caches of the others)" }}
{{- end }}
{{- if and .Values.cluster.enabled (ne (int .Values.cluster.port) 5701) }}
{{- fail "cluster.port: the Kubernetes DNS discovery connects to 5701; keep cluster.port at 5701" }}
{{- end }}
{{- end }}

{{/* The Secret with tls.crt and tls.key: the user's, or the one cert-manager fills. */}}
{{- define "vfps.tlsSecretName" -}}
{{- if .Values.tls.secretName }}
{{- .Values.tls.secretName }}
{{- else if .Values.tls.certManager.enabled }}
{{- printf "%s-tls" (include "vfps.fullname" . | trunc 59 | trimSuffix "-") }}
{{- else }}
{{- fail "tls.enabled needs a certificate: set tls.secretName (a Secret of type kubernetes.io/tls) or tls.certManager.enabled" }}
{{- end }}
{{- end }}

{{/* Where the pods see the TLS Secret. */}}
{{- define "vfps.tlsDirectory" -}}
/etc/vfps/tls
{{- end }}

{{/*
A probe of values (dict "probe" ... "root" $); an httpGet on the HTTP port switches to HTTPS when
TLS is on, unless it names a scheme itself.
*/}}
{{- define "vfps.probe" -}}
{{- $probe := deepCopy .probe }}
{{- $get := $probe.httpGet }}
{{- if and .root.Values.tls.enabled $get }}
{{- if and (not $get.scheme) (has (toString $get.port) (list "http" (toString .root.Values.ports.http))) }}
{{- $_ := set $get "scheme" "HTTPS" }}
{{- end }}
{{- end }}
{{- toYaml $probe }}
{{- end }}
