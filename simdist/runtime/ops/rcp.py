"""The AVX `vrcpps` and `vrsqrtps` estimates and Eigen's preciprocal<Packet8f> and prsqrt<Packet8f>,
which TF 2.21's x86-64 wheel (EIGEN_FAST_MATH) runs where a float32 packet function takes 1/x or
1/sqrt(x) (Eigen/src/Core/arch/AVX/MathFunctions.h: `generic_reciprocal_newton_step<Packet8f,
1>::run(a, _mm256_rcp_ps(a))`, `generic_rsqrt_newton_step<Packet8f, 1>::run(a, _mm256_rsqrt_ps(a))`):
float32 Reciprocal's and Rsqrt's packets, Erfc's 1/x² (packet_erf.py), Atan's 1/|x|
(packet_trig.py). The estimates are the CPU's: on this project's machine (an Intel Xeon with
AVX-512) each is a table of 2048 12-bit mantissas, indexed by the input's top 11 mantissa bits
(vrcpps) or by its exponent's parity and top 10 mantissa bits (vrsqrtps), scaled by a power of
two (observed for every input in [1, 2) and [1, 4) respectively, and for 80,000 inputs in
[2**-115, 2**115]: _TABLE and _RSQRT_TABLE below); vrcpps gives 0 where 1/x is below the normal
range. AMD's CPUs have other tables, 4096 12-bit mantissas indexed by the top 12 mantissa bits
(rcp_amd.py, measured on a Zen 5 EPYC); which one is used follows the host CPU model
(simdist/runtime/host_cpu.py: the CPU simdist runs on, or the reference Intel host). Clauses
ops.eigen-kernels, ops.host-cpu.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime import host_cpu

__all__ = ["rcp_estimate", "reciprocal", "reciprocal_packet", "rsqrt", "rsqrt_estimate", "rsqrt_packet"]

_F = np.float32
# vrcpps(1 + i / 2048) = (2048 + T[i]) / 4096 for i = 0 .. 2047 (T[i] as 3 hex digits, 12 bits)
_TABLE_HEX = (
    "ffeffaff6ff2feefeafe6fe2fdefdafd6fd2fcefcafc6fc2fbffbbfb7fb3faffabfa7fa3f9ff9bf97f93f90f8cf88f84"
    "f80f7cf78f74f71f6df69f65f61f5df59f56f52f4ef4af46f42f3ff3bf37f33f2ff2cf28f24f20f1cf19f15f11f0df0a"
    "f06f02efeefbef7ef3eefeecee8ee4ee0edded9ed5ed2eceecaec6ec3ebfebbeb8eb4eb0eadea9ea5ea2e9ee9ae97e93"
    "e8fe8ce88e84e81e7de7ae76e72e6fe6be67e64e60e5de59e55e52e4ee4be47e44e40e3ce39e35e32e2ee2be27e23e20"
    "e1ce19e15e12e0ee0be07e04e00dfddf9df6df2defdebde8de4de1dddddadd6dd3dcfdccdc8dc5dc1dbedbadb7db4db0"
    "dadda9da6da2d9fd9bd98d95d91d8ed8ad87d84d80d7dd79d76d73d6fd6cd68d65d62d5ed5bd58d54d51d4ed4ad47d44"
    "d40d3dd39d36d33d2fd2cd29d26d22d1fd1cd18d15d12d0ed0bd08d04d01cfecfbcf7cf4cf1ceeceace7ce4ce0cddcda"
    "cd7cd3cd0ccdccacc7cc3cc0cbdcbacb6cb3cb0cadcaaca6ca3ca0c9dc99c96c93c90c8dc8ac86c83c80c7dc7ac77c73"
    "c70c6dc6ac67c64c60c5dc5ac57c54c51c4ec4ac47c44c41c3ec3bc38c35c32c2ec2bc28c25c22c1fc1cc19c16c13c10"
    "c0cc09c06c03c00bfdbfabf7bf4bf1beebebbe8be5be2bdfbdcbd9bd6bd3bd0bcdbcabc6bc3bc0bbdbbabb7bb4bb1bae"
    "babba8ba6ba3ba0b9db9ab97b94b91b8eb8bb88b85b82b7fb7cb79b76b73b70b6db6ab67b64b61b5fb5cb59b56b53b50"
    "b4db4ab47b44b41b3fb3cb39b36b33b30b2db2ab27b25b22b1fb1cb19b16b13b10b0eb0bb08b05b02affafcafaaf7af4"
    "af1aeeaebae9ae6ae3ae0addadaad8ad5ad2acfaccacaac7ac4ac1abeabcab9ab6ab3ab1aaeaabaa8aa5aa3aa0a9da9a"
    "a98a95a92a8fa8da8aa87a84a82a7fa7ca79a77a74a71a6ea6ca69a66a63a61a5ea5ba59a56a53a50a4ea4ba48a46a43"
    "a40a3ea3ba38a36a33a30a2ea2ba28a25a23a20a1da1ba18a15a13a10a0ea0ba08a06a03a009fe9fb9f89f69f39f09ee"
    "9eb9e99e69e39e19de9dc9d99d69d49d19cf9cc9c99c79c49c29bf9bc9ba9b79b59b29af9ad9aa9a89a59a39a099d99b"
    "99899699399198e98c98998698498197f97c97a97797597297096d96b96896696396195e95b95995695495194f94c94a"
    "94794594294093d93b93993693493192f92c92a92792592292091d91b91891691391190f90c90a9079059029008fd8fb"
    "8f98f68f48f18ef8ec8ea8e88e58e38e08de8db8d98d78d48d28cf8cd8cb8c88c68c38c18bf8bc8ba8b78b58b38b08ae"
    "8ac8a98a78a48a28a089d89b89989689489188f88d88a88888688388187f87c87a87887587387186e86c86a867865863"
    "86085e85c85985785585285084e84c84984784584284083e83b83983783583283082e82b82982782582282081e81b819"
    "81781581281080e80c8098078058038007fe7fc7fa7f77f57f37f17ee7ec7ea7e87e57e37e17df7dd7da7d87d67d47d1"
    "7cf7cd7cb7c97c67c47c27c07be7bb7b97b77b57b37b07ae7ac7aa7a87a57a37a179f79d79b79879679479279078e78b"
    "78978778578378177e77c77a77877677477276f76d76b76976776576376075e75c75a75875675475174f74d74b749747"
    "74574374173e73c73a73873673473273072e72b72972772572372171f71d71b71971771571271070e70c70a708706704"
    "7027006fe6fc6fa6f86f56f36f16ef6ed6eb6e96e76e56e36e16df6dd6db6d96d76d56d36d16cf6cd6cb6c96c66c46c2"
    "6c06be6bc6ba6b86b66b46b26b06ae6ac6aa6a86a66a46a26a069e69c69a69869669469269068e68c68a688686684682"
    "68067e67c67a67967767567367166f66d66b66966766566366165f65d65b65965765565365164f64d64c64a648646644"
    "64264063e63c63a63863663463263062f62d62b62962762562362161f61d61b61961861661461261060e60c60a608606"
    "6056036015ff5fd5fb5f95f75f55f45f25f05ee5ec5ea5e85e65e55e35e15df5dd5db5d95d75d65d45d25d05ce5cc5ca"
    "5c95c75c55c35c15bf5be5bc5ba5b85b65b45b25b15af5ad5ab5a95a75a65a45a25a059e59c59b599597595593592590"
    "58e58c58a58858758558358157f57e57c57a57857657557357156f56d56c56a56856656456356155f55d55c55a558556"
    "55455355154f54d54c54a54854654454354153f53d53c53a53853653553353152f52e52c52a52852752552352152051e"
    "51c51a51951751551351251050e50d50b5095075065045025004ff4fd4fb4fa4f84f64f44f34f14ef4ee4ec4ea4e84e7"
    "4e54e34e24e04de4dd4db4d94d74d64d44d24d14cf4cd4cc4ca4c84c74c54c34c14c04be4bc4bb4b94b74b64b44b24b1"
    "4af4ad4ac4aa4a84a74a54a34a24a049e49d49b49949849649449349148f48e48c48a48948748648448248147f47d47c"
    "47a47847747547447247046f46d46b46a46846646546346246045e45d45b45a45845645545345145044e44d44b449448"
    "44644544344144043e43d43b43943843643543343143042e42d42b42942842642542342142041e41d41b41a418416415"
    "41341241040f40d40b40a4084074054044024003ff3fd3fc3fa3f93f73f63f43f23f13ef3ee3ec3eb3e93e83e63e43e3"
    "3e13e03de3dd3db3da3d83d73d53d43d23d03cf3cd3cc3ca3c93c73c63c43c33c13c03be3bd3bb3ba3b83b73b53b43b2"
    "3b03af3ad3ac3aa3a93a73a63a43a33a13a039e39d39b39a39839739539439239138f38e38c38b389388386385383382"
    "38037f37e37c37b37937837637537337237036f36d36c36a36936736636436336136035f35d35c35a359357356354353"
    "35135034e34d34c34a34934734634434334134033f33d33c33a33933733633433333233032f32d32c32a329327326325"
    "32332232031f31d31c31b31931831631531331231130f30e30c30b30a3083073053043023013002fe2fd2fb2fa2f92f7"
    "2f62f42f32f22f02ef2ed2ec2eb2e92e82e62e52e42e22e12df2de2dd2db2da2d92d72d62d42d32d22d02cf2cd2cc2cb"
    "2c92c82c72c52c42c22c12c02be2bd2bc2ba2b92b72b62b52b32b22b12af2ae2ad2ab2aa2a82a72a62a42a32a22a029f"
    "29e29c29b29a29829729529429329129028f28d28c28b28928828728528428328128027f27d27c27b279278277275274"
    "27327127026f26d26c26b26926826726526426326126025f25d25c25b25a25825725625425325225024f24e24c24b24a"
    "24824724624524324224123f23e23d23b23a23923823623523423223123022f22d22c22b229228227225224223222220"
    "21f21e21d21b21a21921721621521421221121020e20d20c20b2092082072062042032022001ff1fe1fd1fb1fa1f91f8"
    "1f61f51f41f31f11f01ef1ee1ec1eb1ea1e91e71e61e51e41e21e11e01df1dd1dc1db1da1d81d71d61d51d31d21d11d0"
    "1ce1cd1cc1cb1c91c81c71c61c51c31c21c11c01be1bd1bc1bb1b91b81b71b61b51b31b21b11b01ae1ad1ac1ab1aa1a8"
    "1a71a61a51a31a21a11a019f19d19c19b19a19919719619519419319119018f18e18c18b18a189188186185184183182"
    "18017f17e17d17c17b17917817717617517317217117016f16d16c16b16a16916816616516416316216015f15e15d15c"
    "15b15915815715615515315215115014f14e14c14b14a14914814714514414314214114013e13d13c13b13a139138136"
    "13513413313213112f12e12d12c12b12a12912712612512412312212011f11e11d11c11b11a118117116115114113112"
    "11010f10e10d10c10b10a1091071061051041031021011000fe0fd0fc0fb0fa0f90f80f60f50f40f30f20f10f00ef0ee"
    "0ec0eb0ea0e90e80e70e60e50e30e20e10e00df0de0dd0dc0db0d90d80d70d60d50d40d30d20d10d00ce0cd0cc0cb0ca"
    "0c90c80c70c60c40c30c20c10c00bf0be0bd0bc0bb0ba0b80b70b60b50b40b30b20b10b00af0ae0ac0ab0aa0a90a80a7"
    "0a60a50a40a30a20a109f09e09d09c09b09a09909809709609509409309109008f08e08d08c08b08a089088087086085"
    "08408308108007f07e07d07c07b07a07907807707607507407307207106f06e06d06c06b06a069068067066065064063"
    "06206106005f05e05d05b05a05905805705605505405305205105004f04e04d04c04b04a049048047046045044043042"
    "04003f03e03d03c03b03a03903803703603503403303203103002f02e02d02c02b02a029028027026025024023022021"
    "02001f01e01d01c01b01a01901801701601501401301201101000f00e00d00c00b00a009008007006005004003002001"
)
_TABLE = np.array([int(_TABLE_HEX[i:i + 3], 16) for i in range(0, len(_TABLE_HEX), 3)], np.uint32) << np.uint32(11)

# vrsqrtps(x) for x = 2**p · (1 + j / 1024), p in {0, 1}: (2048 + R[p · 1024 + j]) / 4096
_RSQRT_HEX = (
    "ffeffaff6ff2feefeafe6fe2fdefdafd6fd2fcefcbfc7fc3fbffbbfb7fb3faffabfa7fa4fa0f9cf98f94f90f8cf89f85"
    "f81f7df79f76f72f6ef6af66f63f5ff5bf57f54f50f4cf48f45f41f3df39f36f32f2ef2bf27f23f20f1cf18f15f11f0d"
    "f0af06f02effefbef7ef4ef0eedee9ee5ee2edeedbed7ed3ed0eccec9ec5ec2ebeebaeb7eb3eb0eacea9ea5ea2e9ee9b"
    "e97e94e90e8de89e86e82e7fe7be78e75e71e6ee6ae67e63e60e5de59e56e52e4fe4ce48e45e41e3ee3be37e34e31e2d"
    "e2ae26e23e20e1ce19e16e12e0fe0ce09e05e02dffdfbdf8df5df1deedebde8de4de1ddeddbdd7dd4dd1dcedcadc7dc4"
    "dc1dbedbadb7db4db1daedaada7da4da1d9ed9bd97d94d91d8ed8bd88d84d81d7ed7bd78d75d72d6fd6bd68d65d62d5f"
    "d5cd59d56d53d50d4dd49d46d43d40d3dd3ad37d34d31d2ed2bd28d25d22d1fd1cd19d16d13d10d0dd0ad07d04d01cfe"
    "cfbcf8cf5cf2cefcecce9ce6ce3ce0cddcdbcd8cd5cd2ccfccccc9cc6cc3cc0cbdcbacb8cb5cb2cafcacca9ca6ca3ca1"
    "c9ec9bc98c95c92c8fc8dc8ac87c84c81c7ec7cc79c76c73c70c6ec6bc68c65c62c60c5dc5ac57c54c52c4fc4cc49c47"
    "c44c41c3ec3cc39c36c33c31c2ec2bc28c26c23c20c1ec1bc18c15c13c10c0dc0bc08c05c03c00bfdbfbbf8bf5bf3bf0"
    "bedbebbe8be5be3be0bddbdbbd8bd5bd3bd0bcebcbbc8bc6bc3bc0bbebbbbb9bb6bb3bb1baebacba9ba7ba4ba1b9fb9c"
    "b9ab97b95b92b8fb8db8ab88b85b83b80b7eb7bb79b76b73b71b6eb6cb69b67b64b62b5fb5db5ab58b55b53b50b4eb4b"
    "b49b46b44b41b3fb3db3ab38b35b33b30b2eb2bb29b26b24b22b1fb1db1ab18b15b13b11b0eb0cb09b07b05b02b00afd"
    "afbaf9af6af4af1aefaedaeaae8ae5ae3ae1adeadcadaad7ad5ad3ad0aceacbac9ac7ac4ac2ac0abdabbab9ab6ab4ab2"
    "aafaadaabaa8aa6aa4aa2a9fa9da9ba98a96a94a91a8fa8da8ba88a86a84a82a7fa7da7ba78a76a74a72a6fa6da6ba69"
    "a66a64a62a60a5da5ba59a57a55a52a50a4ea4ca49a47a45a43a41a3ea3ca3aa38a36a33a31a2fa2da2ba28a26a24a22"
    "a20a1da1ba19a17a15a13a10a0ea0ca0aa08a06a04a019ff9fd9fb9f99f79f59f29f09ee9ec9ea9e89e69e49e19df9dd"
    "9db9d99d79d59d39d19ce9cc9ca9c89c69c49c29c09be9bc9ba9b79b59b39b19af9ad9ab9a99a79a59a39a199f99d99b"
    "99999799499299098e98c98a98898698498298097e97c97a97897697497297096e96c96a96896696496296095e95c95a"
    "95895695495295094e94c94a94894694494294093e93c93a93893793593393192f92d92b92992792592392191f91d91b"
    "91991791691491291090e90c90a9089069049029008ff8fd8fb8f98f78f58f38f18ef8ed8ec8ea8e88e68e48e28e08de"
    "8dc8db8d98d78d58d38d18cf8ce8cc8ca8c88c68c48c28c18bf8bd8bb8b98b78b58b48b28b08ae8ac8aa8a98a78a58a3"
    "8a189f89e89c89a89889689589389188f88d88c88a88888688488388187f87d87b87a87887687487287186f86d86b86a"
    "86886686486286185f85d85b85a85885685485385184f84d84c84a84884684584384183f83e83c83a838837835833831"
    "83082e82c82b82982782582482282081f81d81b81981881681481381180f80d80c80a8088078058038028007fe7fd7fb"
    "7f97f77f67f47f27f17ef7ed7ec7ea7e87e77e57e37e27e07de7dd7db7d97d87d67d47d37d17d07ce7cc7cb7c97c77c6"
    "7c47c27c17bf7be7bc7ba7b97b77b57b47b27b07af7ad7ac7aa7a87a77a57a47a27a079f79d79b79a798797795793792"
    "79078f78d78b78a78878778578478278077f77d77c77a77877777577477277176f76d76c76a76976776676476276175f"
    "75e75c75b75975875675475375175074e74d74b74a74874774574474274073f73d73c73a73973773673473373173072e"
    "72d72b72a72872772572372272071f71d71c71a71971771671471371171070e70d70b70a7087077057047037017006fe"
    "6fd6fb6fa6f86f76f56f46f26f16ef6ee6ec6eb6e96e86e66e56e46e26e16df6de6dc6db6d96d86d66d56d36d26d16cf"
    "6ce6cc6cb6c96c86c66c56c46c26c16bf6be6bc6bb6ba6b86b76b56b46b26b16b06ae6ad6ab6aa6a86a76a66a46a36a1"
    "69f69c69a69769469168e68c68968668368067e67b67867567367066d66a66766566265f65d65a65765465264f64c64a"
    "64764464163f63c63963763463162f62c62962762462161f61c61961761461260f60c60a6076056025ff5fd5fa5f85f5"
    "5f25f05ed5eb5e85e65e35e05de5db5d95d65d45d15cf5cc5ca5c75c45c25bf5bd5ba5b85b55b35b05ae5ab5a95a75a4"
    "5a259f59d59a59859559359058e58b58958758458257f57d57a57857657357156e56c56a56756556256055e55b559557"
    "55455254f54d54b54854654454153f53d53a53853653353152f52c52a52852552352151e51c51a51851551351150e50c"
    "50a5085055035014ff4fc4fa4f84f64f34f14ef4ed4ea4e84e64e44e14df4dd4db4d94d64d44d24d04ce4cb4c94c74c5"
    "4c34c04be4bc4ba4b84b64b34b14af4ad4ab4a94a64a44a24a049e49c49a49749549349148f48d48b489486484482480"
    "47e47c47a47847647447146f46d46b46946746546346145f45d45b45945745545245044e44c44a44844644444244043e"
    "43c43a43843643443243042e42c42a42842642442242041e41c41a41841641441241040e40c40a4084064044024003fe"
    "3fd3fb3f93f73f53f33f13ef3ed3eb3e93e73e53e33e13e03de3dc3da3d83d63d43d23d03ce3cc3cb3c93c73c53c33c1"
    "3bf3bd3bc3ba3b83b63b43b23b03ae3ad3ab3a93a73a53a33a13a039e39c39a39839639539339138f38d38b38a388386"
    "38438238137f37d37b37937837637437237036f36d36b36936736636436236035e35d35b35935735635435235034f34d"
    "34b34934834634434234133f33d33b33a33833633433333132f32e32c32a32832732532332232031e31c31b319317316"
    "31431231130f30d30b30a3083063053033013002fe2fc2fb2f92f72f62f42f22f12ef2ed2ec2ea2e82e72e52e32e22e0"
    "2df2dd2db2da2d82d62d52d32d12d02ce2cd2cb2c92c82c62c52c32c12c02be2bc2bb2b92b82b62b42b32b12b02ae2ac"
    "2ab2a92a82a62a52a32a12a029e29d29b29a29829629529329229028f28d28b28a28828728528428228127f27e27c27a"
    "27927727627427327127026e26d26b26a26826726526326226025f25d25c25a25925725625425325125024e24d24b24a"
    "24824724524424224123f23e23d23b23a23823723523423223122f22e22c22b22922822622522422222121f21e21c21b"
    "21921821621521421221120f20e20c20b20a2082072052042022012001fe1fd1fb1fa1f81f71f61f41f31f11f01ef1ed"
    "1ec1ea1e91e81e61e51e31e21e11df1de1dc1db1da1d81d71d51d41d31d11d01cf1cd1cc1ca1c91c81c61c51c41c21c1"
    "1bf1be1bd1bb1ba1b91b71b61b51b31b21b01af1ae1ac1ab1aa1a81a71a61a41a31a21a019f19e19c19b19a198197196"
    "19419319219018f18e18c18b18a18818718618518318218117f17e17d17b17a17917717617517417217117016e16d16c"
    "16b16916816716516416316216015f15e15c15b15a15915715615515315215115014e14d14c14b149148147146144143"
    "14214113f13e13d13c13a13913813713513413313213012f12e12d12b12a12912812612512412312212011f11e11d11b"
    "11a11911811711511411311211010f10e10d10c10a1091081071061041031021011000fe0fd0fc0fb0fa0f80f70f60f5"
    "0f40f20f10f00ef0ee0ed0eb0ea0e90e80e70e50e40e30e20e10e00de0dd0dc0db0da0d90d70d60d50d40d30d20d00cf"
    "0ce0cd0cc0cb0c90c80c70c60c50c40c30c10c00bf0be0bd0bc0bb0b90b80b70b60b50b40b30b10b00af0ae0ad0ac0ab"
    "0a90a80a70a60a50a40a30a20a009f09e09d09c09b09a09909809609509409309209109008f08e08c08b08a089088087"
    "08608508408208108007f07e07d07c07b07a07907807607507407307207107006f06e06d06c06b069068067066065064"
    "06306206106005f05e05d05b05a05905805705605505405305205105004f04e04d04c04a049048047046045044043042"
    "04104003f03e03d03c03b03a03903803703603403303203103002f02e02d02c02b02a029028027026025024023022021"
    "02001f01e01d01c01b01a01901801701601501401301201101000f00e00d00c00b00a009008007006005004003002001"
)
_RSQRT_TABLE = np.array([int(_RSQRT_HEX[i:i + 3], 16) for i in range(0, len(_RSQRT_HEX), 3)],
                        np.uint32) << np.uint32(11)

_AMD: list[tuple[np.ndarray, np.ndarray]] = []   # (rcp, rsqrt) tables, read on first use


def _tables() -> tuple[np.ndarray, int, np.ndarray, int]:
    """(vrcpps table, the mantissa bits indexing it, vrsqrtps table, its mantissa bits) of the
    modelled CPU: Intel's 11 and 10 bits, AMD's 12 and 12."""
    if host_cpu.current().estimates == "intel":
        return _TABLE, 11, _RSQRT_TABLE, 10
    if not _AMD:
        from simdist.runtime.ops import rcp_amd

        def parse(text: str) -> np.ndarray:
            return np.array([int(text[i:i + 3], 16) for i in range(0, len(text), 3)], np.uint32) << np.uint32(11)
        _AMD.append((parse(rcp_amd.RCP_HEX), parse(rcp_amd.RSQRT_HEX)))
    return _AMD[0][0], 12, _AMD[0][1], 12


def rcp_estimate(a: np.ndarray) -> np.ndarray:
    """_mm256_rcp_ps of float32 a (the modelled CPU's table): ±inf for ±0 and subnormals, ±0 for
    ±inf and where 1/x is below the normal range, NaN for NaN."""
    table, width, _, _ = _tables()
    bits = np.ascontiguousarray(a, _F).view(np.uint32)
    biased = ((bits >> np.uint32(23)) & np.uint32(255)).astype(np.int64)
    rexp = 253 - biased
    mant = table[(bits >> np.uint32(23 - width)) & np.uint32((1 << width) - 1)]
    sign = bits & np.uint32(0x80000000)
    out = (sign | (np.clip(rexp, 0, 254).astype(np.uint32) << np.uint32(23)) | mant).view(_F)
    signed_inf = (sign | np.uint32(0x7F800000)).view(_F)
    out = np.where(rexp <= 0, (sign).view(_F), out)
    out = np.where(biased == 0, signed_inf, out)
    # (vrcpps returns a NaN quieted, as every x86 arithmetic instruction: 0x7f800001 comes back 0x7fc00001 on TF
    # 2.21, bsweep65)
    nan_in = (bits | np.uint32(0x00400000)).view(_F)
    return np.where(biased == 255, np.where(np.isnan(a), nan_in, sign.view(_F)), out)


def _ftz(v: np.ndarray) -> np.ndarray:
    """A float32 result as the kernel threads' MXCSR (FTZ, port::ScopedFlushDenormal) leaves it: below the normal
    range, a zero of its sign."""
    return np.where(np.abs(v) < _F(2.0 ** -126), v * _F(0), v)


def reciprocal_packet(a: np.ndarray) -> np.ndarray:
    """preciprocal<Packet8f>: x = vrcpps(a), t = 1 - a·x, x·t + x where t is not NaN (else x),
    each multiply-add rounded twice (no FMA). Under FTZ the correction x·t of an input from about 2**111 up is
    below the normal range and flushed, so the estimate comes back unrefined (1/2**120 is 0x1.ffep-121 on TF
    2.21, kpaths54: test_kpaths54.py k-unary-reciprocal-float32, LogGrad's k-unary-log-float32)."""
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        x = rcp_estimate(a)
        t = _F(1) - a * x
        return np.where(t == t, _ftz(x * t) + x, x)


def reciprocal(a: np.ndarray) -> np.ndarray:
    """TF's float32 Reciprocal (scalar_inverse_op): preciprocal on the first (n // 8) * 8 elements
    (flat order), 1 / x on the scalar tail."""
    flat = np.ascontiguousarray(a, _F).ravel()
    k = (flat.size // 8) * 8
    out = np.empty(flat.size, _F)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out[:k] = reciprocal_packet(flat[:k])
        out[k:] = _F(1) / flat[k:]
    return out.reshape(np.shape(a))


def rsqrt_estimate(a: np.ndarray) -> np.ndarray:
    """_mm256_rsqrt_ps of float32 a (the modelled CPU's table): ±inf for ±0 and subnormals, 0 for
    +inf, -NaN (the real indefinite) for negative numbers, a NaN itself (quieted) for a NaN."""
    _, _, table, width = _tables()
    bits = np.ascontiguousarray(a, _F).view(np.uint32)
    d = ((bits >> np.uint32(23)) & np.uint32(255)).astype(np.int64) - 127
    idx = ((d & 1) << width) | ((bits >> np.uint32(23 - width)) & np.uint32((1 << width) - 1)).astype(np.int64)
    k = (d - (d & 1)) // 2
    out = ((np.clip(126 - k, 1, 254).astype(np.uint32) << np.uint32(23)) | table[idx]).view(_F)
    sign = bits & np.uint32(0x80000000)
    out = np.where(d == -127, (sign | np.uint32(0x7F800000)).view(_F), out)   # zeros and subnormals
    out = np.where(a == np.inf, _F(0), out)
    # (vrsqrtps of a negative number is the real indefinite, -NaN 0xFFC00000; of a NaN that NaN, quieted, its sign
    # kept: `tf.math.rsqrt` of [-1.5] among 8 float32 elements is -NaN on TF 2.21; fz50, fz14 seed 1420503001 #183)
    nan_in = (bits | np.uint32(0x00400000)).view(_F)
    out = np.where((sign != 0) & (d != -127), np.uint32(0xFFC00000).view(_F), out)
    return np.where(np.isnan(a), nan_in, out)


def rsqrt_packet(a: np.ndarray) -> np.ndarray:
    """prsqrt<Packet8f>: r = vrsqrtps(a), h = (a·r)·r - 1, r + (r·-0.5)·h, each multiply-add rounded
    twice; r itself where that is NaN (a zero, an infinity or NaN)."""
    with np.errstate(invalid="ignore", over="ignore"):
        r = rsqrt_estimate(a)
        h = (a * r) * r + _F(-1)
        out = (r * _F(-0.5)) * h + r
        return np.where(np.isnan(out), r, out)


def rsqrt(a: np.ndarray) -> np.ndarray:
    """TF's float32 Rsqrt (scalar_rsqrt_op): prsqrt on the first (n // 8) * 8 elements (flat
    order), 1 / sqrt(x) on the scalar tail."""
    flat = np.ascontiguousarray(a, _F).ravel()
    k = (flat.size // 8) * 8
    out = np.empty(flat.size, _F)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        out[:k] = rsqrt_packet(flat[:k])
        out[k:] = _F(1) / np.sqrt(flat[k:])
    return out.reshape(np.shape(a))
