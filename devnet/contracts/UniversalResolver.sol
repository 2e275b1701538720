// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// The registry, as far as finding a name's resolver goes.
interface IRegistry {
    function resolver(bytes32 node) external view returns (address);
}

/// ENSIP-10: a resolver that answers for a name and, as a wildcard, for the names under it.
interface IExtendedResolver {
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory);
}

/// ENS's batch gateway (ENSIP-21): viem answers `x-batch-gateway:true` itself, one HTTP request per query.
interface IBatchGateway {
    struct Query {
        address sender;
        string[] urls;
        bytes data;
    }

    function query(Query[] memory queries) external view returns (bool[] memory failures, bytes[] memory responses);
}

/// EIP-3668.
error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);

/**
 * The devnet's ENS universal resolver: one call resolves a name (`resolveWithGateways`) or an address's primary
 * name (`reverseWithGateways`), with the ABI and errors viem's `getEnsAddress`, `getEnsText`, `getEnsAvatar`
 * and `getEnsName` call. A resolver's `OffchainLookup` cannot reach the client as it is: EIP-3668 lets a
 * client follow only a lookup whose `sender` is the contract it called. So the lookup is re-raised from here
 * as one query to the batch gateway the caller named (the resolver stays the query's sender, which is what its
 * gateway signs for), and the callback here hands the answer to the resolver's own callback.
 */
contract UniversalResolver {
    error DNSDecodingFailed(bytes dns);
    error ResolverNotFound(bytes name);
    error ResolverNotContract(bytes name, address resolver);
    error ResolverError(bytes errorData);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error UnsupportedResolverProfile(bytes4 selector);
    error InvalidBatchGatewayResponse();

    uint256 private constant COIN_TYPE_ETH = 60;
    /// The only batch gateway a client without any can use: viem's own, in process.
    string private constant LOCAL_BATCH_GATEWAY = "x-batch-gateway:true";

    IRegistry public immutable registry;

    constructor(IRegistry registry_) {
        registry = registry_;
    }

    /// Resolves `data` (e.g. `addr(node)`, `text(node, key)`) for the DNS-encoded `name`.
    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata gateways)
        external
        view
        returns (bytes memory, address)
    {
        (address resolver, bytes memory result) = _resolve(name, data, gateways, this.resolveCallback.selector, "");
        return (result, resolver);
    }

    function resolveCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (bytes memory, address)
    {
        (address resolver, bytes memory result,) = _finish(response, extraData);
        return (result, resolver);
    }

    /**
     * The primary name of a 20-byte address for coin type 60 (`<hex>.addr.reverse`), checked forward: the
     * name must resolve back to the address, else `ReverseAddressMismatch`.
     */
    function reverseWithGateways(bytes calldata lookupAddress, uint256 coinType, string[] calldata gateways)
        external
        view
        returns (string memory, address, address)
    {
        if (lookupAddress.length != 20 || coinType != COIN_TYPE_ETH) {
            revert UnsupportedResolverProfile(this.reverseWithGateways.selector);
        }
        bytes memory reverseName = _reverseName(lookupAddress);
        bytes memory data = abi.encodeWithSignature("name(bytes32)", _namehash(reverseName, 0));
        bytes memory context = abi.encode(lookupAddress, gateways);
        (address reverseResolver, bytes memory result) =
            _resolve(reverseName, data, gateways, this.reverseNameCallback.selector, context);
        return _checkForward(lookupAddress, gateways, abi.decode(result, (string)), reverseResolver);
    }

    function reverseNameCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (string memory, address, address)
    {
        (address reverseResolver, bytes memory result, bytes memory context) = _finish(response, extraData);
        (bytes memory lookupAddress, string[] memory gateways) = abi.decode(context, (bytes, string[]));
        return _checkForward(lookupAddress, gateways, abi.decode(result, (string)), reverseResolver);
    }

    function reverseAddressCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (string memory, address, address)
    {
        (address resolver, bytes memory result, bytes memory context) = _finish(response, extraData);
        (bytes memory lookupAddress, string memory primary, address reverseResolver) =
            abi.decode(context, (bytes, string, address));
        return _match(lookupAddress, primary, resolver, reverseResolver, result);
    }

    /**
     * The resolver of `name`: the registry's for the name itself, else the nearest parent's, which must be
     * an ENSIP-10 extended resolver to answer for names under it.
     */
    function findResolver(bytes memory name) public view returns (address resolver, bool extended) {
        uint256 offset = 0;
        while (offset < name.length) {
            resolver = registry.resolver(_namehash(name, offset));
            if (resolver != address(0)) {
                if (resolver.code.length == 0) revert ResolverNotContract(name, resolver);
                extended = _supportsExtended(resolver);
                if (offset != 0 && !extended) revert ResolverNotFound(name);
                return (resolver, extended);
            }
            uint256 length = uint8(name[offset]);
            if (length == 0) break;
            offset += length + 1;
        }
        revert ResolverNotFound(name);
    }

    /// Calls the name's resolver; an `OffchainLookup` it raises goes on through the batch gateway.
    function _resolve(
        bytes memory name,
        bytes memory data,
        string[] memory gateways,
        bytes4 callback,
        bytes memory context
    ) internal view returns (address resolver, bytes memory result) {
        bool extended;
        (resolver, extended) = findResolver(name);
        bytes memory call = extended ? abi.encodeCall(IExtendedResolver.resolve, (name, data)) : data;
        (bool ok, bytes memory returned) = resolver.staticcall(call);
        if (ok) return (resolver, extended ? abi.decode(returned, (bytes)) : returned);
        _continueOffchain(resolver, returned, gateways, callback, context);
    }

    /// Re-raises the resolver's `OffchainLookup` from here; any other failure is the resolver's error.
    function _continueOffchain(
        address resolver,
        bytes memory failure,
        string[] memory gateways,
        bytes4 callback,
        bytes memory context
    ) internal view {
        if (failure.length < 4 || bytes4(failure) != OffchainLookup.selector) revert ResolverError(failure);
        bytes memory args = _withoutSelector(failure);
        (address sender, string[] memory urls, bytes memory callData) = abi.decode(args, (address, string[], bytes));
        if (sender != resolver) revert ResolverError(failure);
        IBatchGateway.Query[] memory queries = new IBatchGateway.Query[](1);
        queries[0] = IBatchGateway.Query(sender, urls, callData);
        revert OffchainLookup(
            address(this),
            gateways.length > 0 ? gateways : _localBatchGateway(),
            abi.encodeCall(IBatchGateway.query, (queries)),
            callback,
            _extraData(resolver, args, context)
        );
    }

    /// What the callback needs: the resolver, its callback and extra data, and the caller's own context.
    function _extraData(address resolver, bytes memory args, bytes memory context) internal pure returns (bytes memory) {
        (,,, bytes4 innerCallback, bytes memory innerExtra) =
            abi.decode(args, (address, string[], bytes, bytes4, bytes));
        return abi.encode(resolver, innerCallback, innerExtra, context);
    }

    /// Hands the batch gateway's one answer to the resolver's callback, which checks it (e.g. its signature).
    function _finish(bytes calldata response, bytes calldata extraData)
        internal
        view
        returns (address resolver, bytes memory result, bytes memory context)
    {
        bytes4 callback;
        bytes memory innerExtra;
        (resolver, callback, innerExtra, context) = abi.decode(extraData, (address, bytes4, bytes, bytes));
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != 1 || responses.length != 1) revert InvalidBatchGatewayResponse();
        // The gateway's failure (an HttpError, or Error(string)) goes to the caller as it came.
        if (failures[0]) _bubble(responses[0]);
        (bool ok, bytes memory returned) = resolver.staticcall(abi.encodeWithSelector(callback, responses[0], innerExtra));
        if (!ok) revert ResolverError(returned);
        result = abi.decode(returned, (bytes));
    }

    function _checkForward(
        bytes memory lookupAddress,
        string[] memory gateways,
        string memory primary,
        address reverseResolver
    ) internal view returns (string memory, address, address) {
        if (bytes(primary).length == 0) return ("", address(0), reverseResolver);
        bytes memory name = _dnsEncode(primary);
        bytes memory data = abi.encodeWithSignature("addr(bytes32)", _namehash(name, 0));
        bytes memory context = abi.encode(lookupAddress, primary, reverseResolver);
        (address resolver, bytes memory result) =
            _resolve(name, data, gateways, this.reverseAddressCallback.selector, context);
        return _match(lookupAddress, primary, resolver, reverseResolver, result);
    }

    function _match(
        bytes memory lookupAddress,
        string memory primary,
        address resolver,
        address reverseResolver,
        bytes memory result
    ) internal pure returns (string memory, address, address) {
        address forward = result.length == 32 ? abi.decode(result, (address)) : address(0);
        if (forward != address(bytes20(lookupAddress))) {
            revert ReverseAddressMismatch(primary, abi.encodePacked(forward));
        }
        return (primary, resolver, reverseResolver);
    }

    function _supportsExtended(address resolver) internal view returns (bool) {
        (bool ok, bytes memory returned) = resolver.staticcall{gas: 30_000}(
            abi.encodeWithSignature("supportsInterface(bytes4)", type(IExtendedResolver).interfaceId)
        );
        return ok && returned.length == 32 && abi.decode(returned, (bool));
    }

    /// namehash of the DNS-encoded name from `offset` on.
    function _namehash(bytes memory name, uint256 offset) internal pure returns (bytes32) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 length = uint8(name[offset]);
        if (length == 0) return bytes32(0);
        if (offset + 1 + length >= name.length) revert DNSDecodingFailed(name);
        bytes32 label;
        assembly {
            label := keccak256(add(add(name, 33), offset), length)
        }
        return keccak256(abi.encodePacked(_namehash(name, offset + 1 + length), label));
    }

    /// `alice.eth` → `\x05alice\x03eth\x00`.
    function _dnsEncode(string memory name) internal pure returns (bytes memory encoded) {
        bytes memory text = bytes(name);
        encoded = new bytes(text.length + 2);
        uint256 start = 0;
        for (uint256 i = 0; i <= text.length; i++) {
            if (i < text.length && text[i] != ".") {
                encoded[i + 1] = text[i];
                continue;
            }
            uint256 length = i - start;
            if (length == 0 || length > 255) revert DNSDecodingFailed(text);
            encoded[start] = bytes1(uint8(length));
            start = i + 1;
        }
    }

    /// `<40 lower-case hex digits>.addr.reverse`, DNS-encoded.
    function _reverseName(bytes calldata lookupAddress) internal pure returns (bytes memory) {
        bytes memory digits = new bytes(40);
        bytes16 alphabet = "0123456789abcdef";
        for (uint256 i = 0; i < 20; i++) {
            digits[2 * i] = alphabet[uint8(lookupAddress[i]) >> 4];
            digits[2 * i + 1] = alphabet[uint8(lookupAddress[i]) & 0x0f];
        }
        return abi.encodePacked(uint8(40), digits, uint8(4), "addr", uint8(7), "reverse", uint8(0));
    }

    function _localBatchGateway() internal pure returns (string[] memory gateways) {
        gateways = new string[](1);
        gateways[0] = LOCAL_BATCH_GATEWAY;
    }

    function _withoutSelector(bytes memory data) internal pure returns (bytes memory rest) {
        rest = new bytes(data.length - 4);
        assembly {
            mcopy(add(rest, 32), add(data, 36), mload(rest))
        }
    }

    function _bubble(bytes memory data) internal pure {
        assembly {
            revert(add(data, 32), mload(data))
        }
    }
}
