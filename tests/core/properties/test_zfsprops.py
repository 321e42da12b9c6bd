"""Dataset property values as zfs create accepts them (module/zcommon/zfs_prop.c, libzfs checks)."""

from __future__ import annotations

import pytest

from zfsplanner.core.design.types import DatasetType
from zfsplanner.core.properties.zfsprops import (
    PASSTHROUGH_PROPERTIES,
    PROPERTIES,
    InvalidProperty,
    encryption_options,
    property_option,
)
from zfsplanner.core.versions import Version

FS = DatasetType.FILESYSTEM
VOL = DatasetType.VOLUME


def test_booleans_become_on_and_off():
    assert property_option("atime", False, FS, Version.parse("2.3")) == "atime=off"
    assert property_option("readonly", True, VOL, Version.parse("2.3")) == "readonly=on"


def test_sizes_are_written_in_zfs_units():
    assert property_option("refquota", "1.5G", FS, Version.parse("2.3")) == "refquota=1536M"
    assert property_option("reservation", 1024**3, VOL, Version.parse("2.3")) == "reservation=1G"
    assert property_option("refreservation", "none", VOL, Version.parse("2.3")) == "refreservation=none"
    assert property_option("refreservation", "auto", VOL, Version.parse("2.3")) == "refreservation=auto"
    with pytest.raises(InvalidProperty, match="auto applies only to volumes"):
        property_option("refreservation", "auto", FS, Version.parse("2.3"))
    with pytest.raises(InvalidProperty, match="refquota"):
        property_option("refquota", "lots", FS, Version.parse("2.3"))


def test_unknown_properties_are_refused():
    with pytest.raises(InvalidProperty, match="not a ZFS dataset property"):
        property_option("ui_colour", "red", FS, Version.parse("2.3"))
    assert "ui_colour" not in PASSTHROUGH_PROPERTIES
    assert "encryption" in PASSTHROUGH_PROPERTIES and "recordsize" not in PASSTHROUGH_PROPERTIES


def test_index_values_are_exact():
    assert property_option("xattr", "sa", FS, Version.parse("2.3")) == "xattr=sa"
    assert property_option("dedup", "edonr,verify", FS, Version.parse("2.3")) == "dedup=edonr,verify"
    with pytest.raises(InvalidProperty, match="use one of"):
        property_option("dedup", "edonr", FS, Version.parse("2.3"))  # Edon-R dedup needs verify
    with pytest.raises(InvalidProperty):
        property_option("casesensitivity", "Insensitive", FS, Version.parse("2.3"))


def test_release_gates():
    with pytest.raises(InvalidProperty, match=r"prefetch needs OpenZFS 2\.3 \(or 2\.2\.4\)"):
        property_option("prefetch", "metadata", FS, Version.parse("2.2"))
    assert property_option("prefetch", "metadata", FS, Version.parse("2.2.4")) == "prefetch=metadata"
    with pytest.raises(InvalidProperty, match="snapdir=disabled needs OpenZFS 2.3"):
        property_option("snapdir", "disabled", FS, Version.parse("2.2"))
    with pytest.raises(InvalidProperty, match="aclmode needs OpenZFS 2.0"):
        property_option("aclmode", "passthrough", FS, Version.parse("0.8"))
    assert property_option("acltype", "posixacl", FS, Version.parse("0.8")) == "acltype=posixacl"
    with pytest.raises(InvalidProperty, match="acltype=posix needs OpenZFS 2.0"):
        property_option("acltype", "posix", FS, Version.parse("0.8"))
    with pytest.raises(InvalidProperty, match="compression=zstd needs OpenZFS 2.0"):
        property_option("compression", "zstd", FS, Version.parse("0.8"))


def test_special_small_blocks_on_volumes_and_large_values_need_2_4():
    with pytest.raises(InvalidProperty, match="does not apply to volumes"):
        property_option("special_small_blocks", "16K", VOL, Version.parse("2.3"))
    assert property_option("special_small_blocks", "16K", VOL, Version.parse("2.4")) == "special_small_blocks=16K"
    with pytest.raises(InvalidProperty, match="power of two from 512 to 1M"):
        property_option("special_small_blocks", "2M", FS, Version.parse("2.3"))
    assert property_option("special_small_blocks", "2M", FS, Version.parse("2.4")) == "special_small_blocks=2M"
    assert property_option("special_small_blocks", "0", FS, Version.parse("2.3")) == "special_small_blocks=0"


def test_mountpoint_and_keylocation_forms():
    assert property_option("mountpoint", "/srv/data", FS, Version.parse("2.3")) == "mountpoint=/srv/data"
    assert property_option("mountpoint", "legacy", FS, Version.parse("2.3")) == "mountpoint=legacy"
    with pytest.raises(InvalidProperty, match="absolute path"):
        property_option("mountpoint", "srv/data", FS, Version.parse("2.3"))
    assert property_option("keylocation", "https://keys.example/k", FS, Version.parse("2.3")).startswith("keylocation=https://")
    for bad in ("none", "file://relative", "file:///", "/root/key"):
        with pytest.raises(InvalidProperty, match="keylocation"):
            property_option("keylocation", bad, FS, Version.parse("2.3"))


def test_encryption_is_complete_or_absent():
    ok = encryption_options({"encryption": "on", "keyformat": "passphrase"}, False, FS, Version.parse("2.3"))
    assert ok.options == ("encryption=on", "keyformat=passphrase") and ok.encrypted and ok.problem is None
    missing = encryption_options({"encryption": "on"}, False, FS, Version.parse("2.3"))
    assert missing.options == () and not missing.encrypted
    assert missing.problem is not None and "Keyformat required" in missing.problem
    inherited = encryption_options({"encryption": "aes-128-gcm"}, True, VOL, Version.parse("2.3"))
    assert inherited.options == ("encryption=aes-128-gcm",) and inherited.encrypted
    off = encryption_options({"encryption": "off"}, False, FS, Version.parse("2.3"))
    assert off.options == ("encryption=off",) and not off.encrypted
    bad = encryption_options({"encryption": "on", "keyformat": "password"}, False, FS, Version.parse("2.3"))
    assert bad.options == () and bad.problem is not None and "keyformat=password is not valid" in bad.problem
    nothing = encryption_options({}, True, FS, Version.parse("2.3"))
    assert nothing.options == () and nothing.encrypted and nothing.problem is None


def test_every_property_can_be_checked():
    for name, prop in PROPERTIES.items():
        assert prop.types, name
        if prop.kind == "index":
            assert prop.values, name
            assert set(prop.since) <= set(prop.values), name
