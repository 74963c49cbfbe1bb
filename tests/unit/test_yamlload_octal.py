"""Manifests are read with YAML 1.1 integer rules, as Kubernetes reads them."""

from kubectl_dgd.adapters.yamlload import load_text


def test_leading_zero_integer_is_octal_like_kubernetes() -> None:
    data = load_text("defaultMode: 0644\nzero: 0\nten: 10\nnine: 09\n", "t.yaml")[0].data
    assert data == {"defaultMode": 0o644, "zero": 0, "ten": 10, "nine": 9}
